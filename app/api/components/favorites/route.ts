// GET /api/components/favorites — the signed-in user's favorites: names, and the records that still exist.
import { FavoriteList } from "@/lib/portal/contracts/components";
import { listFavorites } from "@/lib/portal/favorites";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The caller's favorites", schema: FavoriteList } } },
  handler: async ({ user, services }) => {
    const [catalog, db] = await Promise.all([services.catalog(), services.db()]);
    const names = await listFavorites(db, user.id);
    const items = names.flatMap((name) => {
      const entry = catalog.get(name);
      return entry ? [{ name, file: entry.file, stale: entry.stale, favorite: true, component: entry.component }] : [];
    });
    return json({ names, items, total: items.length });
  },
});
