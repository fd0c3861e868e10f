// next-auth's own endpoints (/api/auth/session, /csrf, /providers, /signin/*, /callback/*, /signout).
// /api/auth/logout is a sibling static route and takes precedence over this catch-all.
import NextAuth from "next-auth";
import { z } from "zod";
import { getAuthOptions, isFormSignInProvider } from "@/lib/portal/auth/options";
import { nonJson, publicRoute } from "@/lib/portal/http";

// next-auth reads the request (body included) itself; route() adds the boundary rule on strings and one error answer.
const handler = publicRoute({
  params: z.object({ nextauth: z.array(z.string()) }),
  handler: async ({ request, params }) => {
    const [action, providerId] = params.nextauth;
    // The development sign-in's callback is a form POST; next-auth answers a GET of it with a 500.
    if (request.method === "GET" && action === "callback" && providerId && isFormSignInProvider(providerId)) {
      return nonJson(new Response(null, { status: 303, headers: { Location: "/auth/signin", "Cache-Control": "no-store" } }));
    }
    return nonJson(await (NextAuth(request as never, { params: Promise.resolve(params) } as never, getAuthOptions()) as Promise<Response>));
  },
});

export { handler as GET, handler as POST };
