/**
 * The address of the browser behind a request to the portal. Next.js has no peer address for route
 * handlers; it passes it in X-Forwarded-For, which it sets from the socket only when the request has
 * none. So the last entry of X-Forwarded-For is the address the nearest hop saw: behind
 * deploy/nginx (which replaces the header with the address it saw, never passing on a client's)
 * that is the player's; straight to `next start`, the socket's. A portal reachable by clients other
 * than through that proxy would let a client name its own address (docs/operations/rate-limits.md).
 */
import "server-only";
import { isIP } from "node:net";

export function clientAddressOf(request: Request): string | null {
  const last = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim() ?? "";
  // An IPv4 peer on a dual-stack socket reads ::ffff:a.b.c.d: the same address.
  const address = /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(last) ? last.slice(7) : last;
  return isIP(address) ? address : null;
}
