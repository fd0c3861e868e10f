// Runs before every route (Next.js "proxy", formerly middleware): a path whose percent-encoding is not
// UTF-8 answers 400 here, before Next.js's own decoding of dynamic segments would answer a bare 500.
import { NextResponse, type NextRequest } from "next/server";
import { badPathResponse, isDecodablePath } from "@/lib/portal/http/path";

export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  if (!isDecodablePath(pathname)) return badPathResponse(pathname);
  return NextResponse.next();
}

export const config = {
  // Only paths holding a "%": any other path decodes. Running the proxy costs a request about 1.5 ms of
  // CPU (a catalog search took 3.9 ms with it on every path, 2.4 ms without). Not the build's static files.
  matcher: ["/((?!_next/static|_next/image|favicon.ico)[^%]*%.*)"],
};
