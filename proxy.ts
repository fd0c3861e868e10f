// Runs before pages and before any path holding a "%" (Next.js "proxy", formerly middleware):
// - a path whose percent-encoding is not UTF-8 answers 400 here, before Next.js's own decoding of
//   dynamic segments would answer a bare 500;
// - a page gets its Content-Security-Policy with a fresh nonce (and HSTS over TLS). Next.js reads the
//   nonce from the request's policy and puts it on the scripts it renders.
// API answers, the build's files and the probes skip the proxy (about 1.5 ms of CPU a request): their
// headers are static, in next.config.mjs. See docs/decisions/2026-11-28-security-headers.md.
import { NextResponse, type NextRequest } from "next/server";
import { badPathResponse, isDecodablePath } from "@/lib/portal/http/path";
import { pageSecurityHeaders } from "@/lib/portal/http/page-security";

const isApiPath = (pathname: string) => pathname === "/api" || pathname.startsWith("/api/");

export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  if (!isDecodablePath(pathname)) return badPathResponse(pathname);
  if (isApiPath(pathname)) return NextResponse.next();
  const security = pageSecurityHeaders(request);
  const requestHeaders = new Headers(request.headers);
  for (const [name, value] of Object.entries(security.request)) requestHeaders.set(name, value);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(security.response)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    // Any path holding a "%", API included: only those can fail to decode.
    "/((?!_next/static|_next/image|favicon.ico)[^%]*%.*)",
    // Pages: every path but the API, the build's files, the icon and the probes. Not the router's own
    // prefetches (RSC payloads, no document); a browser's <link rel=prefetch> of a page still gets its policy.
    {
      source: "/((?!api(?:/|$)|_next/|health$|metrics$|favicon\\.ico$|icon\\.svg$).*)",
      missing: [{ type: "header", key: "next-router-prefetch" }],
    },
  ],
};
