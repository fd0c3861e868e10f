// GET /api/components — search, filters, sort, paging and counts, answered from the in-memory index.
import { favoriteSet } from "@/lib/portal/favorites";
import { listQuerySchema } from "@/lib/catalog/query";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  query: listQuerySchema,
  handler: async ({ user, query, services }) => {
    const [catalog, db] = await Promise.all([services.catalog(), services.db()]);
    const favorites = await favoriteSet(db, user.id);
    return json(catalog.list(query, favorites));
  },
});
