/**
 * SSRF guard of webhook endpoints. A game names the URL, and the service calls it from inside our
 * network, so in production an endpoint may not reach loopback, private, link-local (cloud
 * metadata), carrier-grade NAT or other special addresses unless OFFERS_WEBHOOK_ALLOW_PRIVATE says
 * so. The check runs on the addresses the connection actually uses (a `lookup` for node:http), so a
 * name that resolves to a public address when the endpoint is saved and to 127.0.0.1 later
 * (DNS rebinding) is still refused; an address written in the URL is checked before connecting.
 */
import dns from "node:dns";
import net from "node:net";

/** Ranges an endpoint may not reach unless private addresses are allowed. */
const BLOCKED: Array<[string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"], // "this network"
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12, "ipv4"],
  ["192.0.0.0", 24, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["198.18.0.0", 15, "ipv4"],
  ["224.0.0.0", 4, "ipv4"], // multicast
  ["240.0.0.0", 4, "ipv4"], // reserved, broadcast
  ["::", 128, "ipv6"],
  ["::1", 128, "ipv6"],
  ["64:ff9b::", 96, "ipv6"], // NAT64 of any IPv4 address
  ["fc00::", 7, "ipv6"], // unique local
  ["fe80::", 10, "ipv6"], // link-local
  ["ff00::", 8, "ipv6"], // multicast
];

const blockList = new net.BlockList();
for (const [address, prefix, family] of BLOCKED) blockList.addSubnet(address, prefix, family);

/** True when the address is loopback, private or otherwise special (IPv4-mapped IPv6 included). */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return blockList.check(address, family === 4 ? "ipv4" : "ipv6");
}

export class AddressNotAllowedError extends Error {
  readonly code = "ADDRESS_NOT_ALLOWED";
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a loopback or private address (OFFERS_WEBHOOK_ALLOW_PRIVATE is off)`);
    this.name = "AddressNotAllowedError";
  }
}

/** The host of a URL as the resolver and net.isIP take it (IPv6 literals without brackets). */
export function hostOf(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

export interface AddressPolicy {
  /** Loopback and private addresses may be reached (development, tests, or the setting). */
  allowPrivate: boolean;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for node:http(s) agents and requests: resolves as usual, then refuses the connection
 * when any resolved address is private (all of them, so a resolver answering a public and a private
 * address cannot be steered to the private one).
 */
export function guardedLookup(policy: AddressPolicy): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "", 0);
      const list = addresses as dns.LookupAddress[];
      if (!policy.allowPrivate) {
        const bad = list.find((a) => isPrivateAddress(a.address));
        if (bad) return callback(new AddressNotAllowedError(hostname, bad.address) as unknown as NodeJS.ErrnoException, "", 0);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      callback(null, first.address, first.family);
    });
  }) as unknown as net.LookupFunction;
}

/** Refuses an address written in the URL itself (the lookup is skipped for those). */
export function checkLiteralAddress(url: URL, policy: AddressPolicy): void {
  const host = hostOf(url);
  if (!policy.allowPrivate && isPrivateAddress(host)) throw new AddressNotAllowedError(host, host);
}

/**
 * Where an endpoint URL may point, checked when it is saved: an address in the URL, or a name that
 * resolves now, must not be private. A name that does not resolve now is accepted (its deliveries
 * are checked again at every connection).
 */
export async function checkEndpointUrl(url: URL, policy: AddressPolicy): Promise<void> {
  if (policy.allowPrivate) return;
  checkLiteralAddress(url, policy);
  const host = hostOf(url);
  if (net.isIP(host)) return;
  if (host === "localhost" || host.endsWith(".localhost")) throw new AddressNotAllowedError(host, "127.0.0.1");
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true });
  } catch {
    return;
  }
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw new AddressNotAllowedError(host, bad.address);
}
