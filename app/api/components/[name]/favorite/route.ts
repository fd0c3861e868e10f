// POST / DELETE /api/components/:name/favorite — the signed-in user's star (idempotent).
import { authorize } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { getCatalog } from "@/lib/catalog/service";
import { addFavorite, removeFavorite } from "@/lib/catalog/favorites";
import { json, nameFrom, problem } from "@/lib/catalog/http";
import { auditFavorite } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export async function POST(request: Request, context: Context) {
  const auth = await authorize(request, "engineer");
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  if (!(await getCatalog()).get(name.name)) return problem(404, `no component named "${name.name}"`);
  const { db } = await getPortalDb();
  const added = await addFavorite(db, auth.user.id, name.name);
  await auditFavorite(request, auth.user, name.name, true, added);
  return json({ name: name.name, favorite: true, changed: added });
}

export async function DELETE(request: Request, context: Context) {
  const auth = await authorize(request, "engineer");
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const { db } = await getPortalDb();
  const removed = await removeFavorite(db, auth.user.id, name.name);
  await auditFavorite(request, auth.user, name.name, false, removed);
  // A star on a component that has since gone can still be removed; an unknown name with no star is 404.
  if (!removed && !(await getCatalog()).get(name.name)) return problem(404, `no component named "${name.name}"`);
  return json({ name: name.name, favorite: false, changed: removed });
}
