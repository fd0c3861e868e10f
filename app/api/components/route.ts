// GET /api/components — search, filters, sort, paging and counts, answered from the in-memory index.
import { authorize } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { getCatalog } from "@/lib/catalog/service";
import { favoriteSet } from "@/lib/catalog/favorites";
import { listQuerySchema, searchParamsToObject } from "@/lib/catalog/query";
import { humanIssues } from "@/lib/catalog/schema";
import { json, problem } from "@/lib/catalog/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const raw = searchParamsToObject(new URL(request.url).searchParams);
  const query = listQuerySchema.safeParse(raw);
  if (!query.success) return problem(400, "invalid query", { issues: humanIssues(query.error, raw) });
  const [catalog, { db }] = await Promise.all([getCatalog(), getPortalDb()]);
  const favorites = await favoriteSet(db, auth.user.id);
  return json(catalog.list(query.data, favorites));
}
