// GET /api/components/favorites — the signed-in user's favorites: names, and the records that still exist.
import { authorize } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { getCatalog } from "@/lib/catalog/service";
import { listFavorites } from "@/lib/catalog/favorites";
import { json } from "@/lib/catalog/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const [catalog, { db }] = await Promise.all([getCatalog(), getPortalDb()]);
  const names = await listFavorites(db, auth.user.id);
  const items = names.flatMap((name) => {
    const entry = catalog.get(name);
    return entry ? [{ name, file: entry.file, stale: entry.stale, favorite: true, component: entry.component }] : [];
  });
  return json({ names, items, total: items.length });
}
