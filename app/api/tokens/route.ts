// GET /api/tokens: the caller's personal API tokens (never the tokens themselves).
// POST /api/tokens {name}: creates one; the answer holds the token, shown this once.
import { CreatedToken, TokenList, TokenRequest } from "@/lib/portal/contracts/tokens";
import { createToken, listTokens } from "@/lib/portal/tokens";
import { auditContextOf } from "@/lib/portal/audit";
import { json, route } from "@/lib/portal/http";


export const GET = route({
  doc: { responses: { 200: { description: "The caller's tokens (never the tokens themselves)", schema: TokenList } } },
  handler: async ({ user, services }) => {
    const db = await services.db();
    return json({ tokens: await listTokens(db, user.id) });
  },
});

export const POST = route({
  doc: { responses: { 201: { description: "The token, shown this once", schema: CreatedToken } } },
  // A token cannot mint more tokens: creating one needs a signed-in browser session.
  sessionOnly: true,
  body: TokenRequest,
  handler: async ({ request, user, body, services }) => {
    const db = await services.db();
    const { id, name, email, groups } = user;
    const created = await createToken(db, { id, name, email, groups }, body.name, auditContextOf(request, user));
    return json(created, { status: 201 });
  },
});
