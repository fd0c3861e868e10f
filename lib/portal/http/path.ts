/**
 * Percent-encoding of a request path. Next.js decodes each dynamic segment with decodeURIComponent and,
 * when that throws (`%ff`, `%c0%ae`: not UTF-8), answers a bare 500; the proxy (proxy.ts) checks the
 * path first with this, once for every route.
 */
export function isDecodablePath(pathname: string): boolean {
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return false;
    }
  }
  return true;
}

export const BAD_PATH_DETAIL = "the path is not valid percent-encoding (each %XX sequence must spell UTF-8)";

/** The answer to a path that cannot be decoded: JSON under /api, plain text for pages. */
export function badPathResponse(pathname: string): Response {
  const headers = { "Cache-Control": "no-store" };
  if (pathname === "/api" || pathname.startsWith("/api/")) {
    return Response.json({ message: "invalid-request", detail: BAD_PATH_DETAIL }, { status: 400, headers });
  }
  return new Response(`Bad request: ${BAD_PATH_DETAIL}.\n`, { status: 400, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}
