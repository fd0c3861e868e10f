// GET /api/components/favorites — the signed-in user's favorites: names, and the records that still exist.
import { listFavorites } from "@/lib/portal/favorites";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
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
