// /auth/<provider>/callback: the redirect URI registered at the identity provider; forwards, query
// and method included (307), to next-auth's callback /api/auth/callback/<provider>.
type Context = { params: Promise<{ provider: string }> };

async function forward(request: Request, context: Context): Promise<Response> {
  const { provider } = await context.params;
  if (!/^[a-z0-9-]+$/.test(provider)) return Response.json({ message: "not-found" }, { status: 404 });
  const { search } = new URL(request.url);
  return new Response(null, { status: 307, headers: { Location: `/api/auth/callback/${provider}${search}`, "Cache-Control": "no-store" } });
}

export { forward as GET, forward as POST };
