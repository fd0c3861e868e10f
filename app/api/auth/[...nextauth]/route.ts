// next-auth's own endpoints (/api/auth/session, /csrf, /providers, /signin/*, /callback/*, /signout).
// /api/auth/logout is a sibling static route and takes precedence over this catch-all.
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/portal/auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(request as never, context as never, getAuthOptions()) as Promise<Response>;
}

export { handler as GET, handler as POST };
