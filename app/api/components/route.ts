// GET /api/components — search, filters, sort, paging and counts, answered from the in-memory index.
import { ComponentList } from "@/lib/portal/contracts/components";
import { favoriteSet } from "@/lib/portal/favorites";
import { listQuerySchema, unknownLevels } from "@/lib/catalog/query";
import { json, PortalError, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "One page of the list, with facet counts", schema: ComponentList } } },
  query: listQuerySchema,
  handler: async ({ user, query, services }) => {
    const [catalog, db] = await Promise.all([services.catalog(), services.db()]);
    // The levels are those of the scorecard rules in force: a name that is not one of them is refused.
    const unknown = unknownLevels(query, catalog.scorecardRules.levels);
    if (unknown.length) {
      const known = [...catalog.scorecardRules.levels, "none"].join(", ");
      const message = `"${unknown[0]}" is not a scorecard level; the levels are ${known}`;
      throw new PortalError("invalid-request", `the query is not valid: level: ${message}`, { issues: [{ path: ["level"], message }] });
    }
    const favorites = await favoriteSet(db, user.id);
    return json(catalog.list(query, favorites));
  },
});
