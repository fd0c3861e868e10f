// GET /api/components — search, filters, sort, paging and counts, answered from the in-memory index.
import { ComponentList } from "@/lib/portal/contracts/components";
import { favoriteSet } from "@/lib/portal/favorites";
import { listQuerySchema } from "@/lib/catalog/query";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "One page of the list, with facet counts", schema: ComponentList } } },
  query: listQuerySchema,
  handler: async ({ user, query, services }) => {
    const [catalog, db] = await Promise.all([services.catalog(), services.db()]);
    const favorites = await favoriteSet(db, user.id);
    return json(catalog.list(query, favorites));
  },
});
