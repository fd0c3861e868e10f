/**
 * Whether a request reached the portal over TLS: directly, or through the edge proxy, which sets
 * X-Forwarded-Proto (deploy/nginx; the portal is reachable only through it, see the decision
 * trusted-proxies). Secure cookies and HSTS follow it.
 */
export function isSecureRequest(request: Request): boolean {
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  return forwarded ? forwarded === "https" : new URL(request.url).protocol === "https:";
}
