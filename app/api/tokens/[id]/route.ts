// DELETE /api/tokens/:id: revokes one of the caller's tokens (an admin may revoke anyone's).
import { authorize, hasRole } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { revokeToken } from "@/lib/portal/tokens";
import { auditTokenRevoked } from "@/lib/portal/audit-log";

type Context = { params: Promise<{ id: string }> };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function DELETE(request: Request, context: Context): Promise<Response> {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const { id } = await context.params;
  if (!uuidPattern.test(id)) return Response.json({ message: "token-not-found" }, { status: 404 });
  const { db } = await getPortalDb();
  const revoked = await revokeToken(db, id, hasRole(auth.user, "admin") ? undefined : auth.user.id);
  if (!revoked) return Response.json({ message: "token-not-found" }, { status: 404 });
  await auditTokenRevoked(request, auth.user, id);
  return Response.json({ id, revoked: true });
}
