// POST / DELETE /api/components/:name/favorite — the signed-in user's star (idempotent).
import { getPortalDb } from "@/lib/portal/db";
import { getCatalog } from "@/lib/portal/services";
import { addFavorite, removeFavorite } from "@/lib/portal/favorites";
import { componentNotFound, componentParams, json, route } from "@/lib/portal/http";
import { auditFavorite } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

export const POST = route({
  role: "engineer",
  params: componentParams,
  handler: async ({ request, user, params: { name } }) => {
    if (!(await getCatalog()).get(name)) throw componentNotFound(name);
    const { db } = await getPortalDb();
    const added = await addFavorite(db, user.id, name);
    await auditFavorite(request, user, name, true, added);
    return json({ name, favorite: true, changed: added });
  },
});

export const DELETE = route({
  role: "engineer",
  params: componentParams,
  handler: async ({ request, user, params: { name } }) => {
    const { db } = await getPortalDb();
    const removed = await removeFavorite(db, user.id, name);
    await auditFavorite(request, user, name, false, removed);
    // A star on a component that has since gone can still be removed; an unknown name with no star is 404.
    if (!removed && !(await getCatalog()).get(name)) throw componentNotFound(name);
    return json({ name, favorite: false, changed: removed });
  },
});
