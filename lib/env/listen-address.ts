// Where the portal may listen: the development sign-in lets anyone who reaches the portal sign in as any
// user, admin included, so it runs only on a loopback address unless the operator says otherwise.
import { BlockList, isIP } from "node:net";

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");
loopback.addSubnet("::ffff:127.0.0.0", 104, "ipv6");

/** Whether `host` (an address or a name, as next start's --hostname takes it) is this machine's loopback only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost") return true;
  const family = isIP(bare);
  return family !== 0 && loopback.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/** Why the portal must not start with these settings (the development sign-in on a non-loopback address), or null. */
export function devSignInListenProblem(env: { PORTAL_HOST: string; PORTAL_DEV_LOGIN: boolean; PORTAL_DEV_LOGIN_ANY_HOST: boolean }): string | null {
  if (!env.PORTAL_DEV_LOGIN || env.PORTAL_DEV_LOGIN_ANY_HOST || isLoopbackHost(env.PORTAL_HOST)) return null;
  return [
    `PORTAL_DEV_LOGIN=1 with PORTAL_HOST=${env.PORTAL_HOST}: the development sign-in (any name, no password, admin included)`,
    `would be open to everyone who reaches ${env.PORTAL_HOST}. The portal does not start. Either listen on loopback`,
    `(PORTAL_HOST=127.0.0.1), turn the development sign-in off, or allow it on purpose with PORTAL_DEV_LOGIN_ANY_HOST=1.`,
  ].join("\n");
}
