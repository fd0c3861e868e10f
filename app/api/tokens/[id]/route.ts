// DELETE /api/tokens/:id: revokes one of the caller's tokens (an admin may revoke anyone's).
import { RevokedToken } from "@/lib/portal/contracts/tokens";
import { z } from "zod";
import { hasRole } from "@/lib/portal/roles";
import { revokeToken } from "@/lib/portal/tokens";
import { auditContextOf } from "@/lib/portal/audit";
import { json, PortalError, route } from "@/lib/portal/http";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const tokenNotFound = () => new PortalError("token-not-found", "no such token (or not yours to revoke)");

export const DELETE = route({
  doc: { responses: { 200: { description: "Revoked", schema: RevokedToken } }, errors: ["token-not-found"] },
  params: z.object({ id: z.string() }),
  handler: async ({ request, user, params: { id }, services }) => {
    if (!uuidPattern.test(id)) throw tokenNotFound();
    const db = await services.db();
    const revoked = await revokeToken(db, id, hasRole(user, "admin") ? undefined : user.id, auditContextOf(request, user));
    if (!revoked) throw tokenNotFound();
    return json({ id, revoked: true as const });
  },
});
