/**
 * SSRF guard of webhook endpoints. A game names the URL, and the service calls it from inside our
 * network, so in production an endpoint may reach only public unicast addresses: not loopback,
 * private, link-local (cloud metadata), carrier-grade NAT, documentation, benchmarking or any other
 * special-purpose address, unless OFFERS_WEBHOOK_ALLOW_PRIVATE says so. The check runs on the
 * addresses the connection actually uses (a `lookup` for node:http), so a name that resolves to a
 * public address when the endpoint is saved and to 127.0.0.1 later (DNS rebinding) is still
 * refused; an address written in the URL is checked before connecting.
 *
 * Which addresses are special comes from ipaddr.js's range table (kept by its maintainers after the
 * IANA special-purpose registries), not from a list of our own: its `unicast` is the only range
 * allowed. The few gaps of its table are closed below, each saying why.
 */
import dns from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";

/**
 * IANA's global unicast block. ipaddr.js names what it knows and calls the rest of the IPv6 space
 * `unicast`, including addresses outside this block: the deprecated IPv4-compatible ::a.b.c.d
 * (::/96, e.g. ::7f00:1 = ::127.0.0.1), the dummy prefix 100:0:0:1::/64 and unassigned space. None
 * of those is a public address, so an IPv6 address must also lie in 2000::/3.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/**
 * NAT64's well-known prefix (RFC 6052): a DNS64 resolver answers 64:ff9b::a.b.c.d for an IPv4-only
 * host, so it is judged by the IPv4 address in its last 32 bits, as IPv4-mapped ::ffff:a.b.c.d is.
 * The other forms that embed an IPv4 address — 6to4 2002::/16, Teredo 2001::/32, the local-use
 * NAT64 prefix 64:ff9b:1::/48, IPv4-translated ::ffff:0:a.b.c.d, IPv4-compatible ::a.b.c.d — are
 * refused outright: tunnels and deprecated forms no webhook receiver needs.
 */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An IP literal as net.isIP takes it, or null for a name. */
function parseAddress(address: string): Address | null {
  const family = net.isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return null;
  // ipaddr.js reads "::a.b.c.d" (IPv4-compatible) as IPv4-mapped; the URL parser writes every IPv6
  // address in hex groups first, as the kernel sees it. A zone (fe80::1%eth0) only qualifies link-local.
  const hex = new URL(`http://[${address.split("%")[0]}]`).hostname.slice(1, -1);
  return ipaddr.IPv6.parse(hex);
}

function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const [high, low] = address.parts.slice(6);
  return new ipaddr.IPv4([high! >> 8, high! & 0xff, low! >> 8, low! & 0xff]);
}

function isPublicUnicast(address: Address): boolean {
  if (address instanceof ipaddr.IPv4) return address.range() === "unicast";
  if (address.isIPv4MappedAddress()) return isPublicUnicast(address.toIPv4Address());
  if (address.match(NAT64_WELL_KNOWN)) return isPublicUnicast(embeddedIPv4(address));
  return address.match(GLOBAL_UNICAST_V6) && address.range() === "unicast";
}

/**
 * True when an IP literal is anything but a public unicast address: loopback, private, link-local,
 * documentation, reserved, multicast, or an IPv6 form of one of those. A name is not judged here.
 */
export function isPrivateAddress(address: string): boolean {
  let parsed: Address | null;
  try {
    parsed = parseAddress(address);
  } catch {
    // An IP literal net.isIP accepts and the parsers do not: refused, never thrown in a resolver callback.
    return true;
  }
  return parsed !== null && !isPublicUnicast(parsed);
}

export class AddressNotAllowedError extends Error {
  readonly code = "ADDRESS_NOT_ALLOWED";
  constructor(readonly host: string, readonly address: string) {
    super(`${host} resolves to ${address}, a loopback or private address or one set aside for special use (OFFERS_WEBHOOK_ALLOW_PRIVATE is off)`);
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
