// POST / DELETE /api/components/:name/favorite — the signed-in user's star (idempotent).
import { FavoriteAnswer } from "@/lib/portal/contracts/components";
import { addFavorite, removeFavorite } from "@/lib/portal/favorites";
import { componentNotFound, componentParams, json, route } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "The star, and whether this call changed it", schema: FavoriteAnswer } }, errors: ["not-found"] },
  role: "engineer",
  params: componentParams,
  handler: async ({ request, user, params: { name }, services }) => {
    if (!(await services.catalog()).get(name)) throw componentNotFound(name);
    const db = await services.db();
    const added = await addFavorite(db, user.id, name, auditContextOf(request, user));
    return json({ name, favorite: true, changed: added });
  },
});

export const DELETE = route({
  doc: { responses: { 200: { description: "The star, and whether this call changed it", schema: FavoriteAnswer } }, errors: ["not-found"] },
  role: "engineer",
  params: componentParams,
  handler: async ({ request, user, params: { name }, services }) => {
    const db = await services.db();
    const removed = await removeFavorite(db, user.id, name, auditContextOf(request, user));
    // A star on a component that has since gone can still be removed; an unknown name with no star is 404.
    if (!removed && !(await services.catalog()).get(name)) throw componentNotFound(name);
    return json({ name, favorite: false, changed: removed });
  },
});
