// /auth/<provider>/callback: the redirect URI registered at the identity provider; forwards, query
// and method included (307), to next-auth's callback /api/auth/callback/<provider>.
import { PortalError } from "@/lib/portal/errors";
import { errorResponse } from "@/lib/portal/http/respond";

type Context = { params: Promise<{ provider: string }> };

async function forward(request: Request, context: Context): Promise<Response> {
  const { provider } = await context.params;
  // Not a route() (a redirect must not need a session), but its refusal is the portal's one error body.
  if (!/^[a-z0-9-]+$/.test(provider)) return errorResponse(new PortalError("not-found", "no sign-in provider has that name"));
  const { search } = new URL(request.url);
  return new Response(null, { status: 307, headers: { Location: `/api/auth/callback/${provider}${search}`, "Cache-Control": "no-store" } });
}

export { forward as GET, forward as POST };
