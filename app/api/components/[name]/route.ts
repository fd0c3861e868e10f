// GET, PUT (replace) and PATCH (JSON merge patch) /api/components/:name.
// Writes need If-Match (the ETag of the GET, or "*"); a stale one answers 412 with the current ETag.
import { authorize } from "@/lib/portal/guard";
import { getPortalDb } from "@/lib/portal/db";
import { getCatalog } from "@/lib/catalog/service";
import { etagMatches } from "@/lib/catalog/catalog";
import { favoriteSet } from "@/lib/catalog/favorites";
import { json, nameFrom, problem, readJson, updateResponse } from "@/lib/catalog/http";
import { auditComponentUpdate } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ name: string }> };

export async function GET(request: Request, context: Context) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const catalog = await getCatalog();
  const source = await catalog.source(name.name);
  if (!source) return problem(404, `no component named "${name.name}"`);
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && etagMatches(ifNoneMatch, source.etag)) return new Response(null, { status: 304, headers: { ETag: source.etag } });
  const { db } = await getPortalDb();
  const favorite = (await favoriteSet(db, auth.user.id)).has(name.name);
  const { entry } = source;
  return json(
    { name: entry.name, file: entry.file, component: entry.component, etag: source.etag, stale: entry.stale, staleReason: entry.staleReason ?? null, yaml: source.text, favorite },
    { headers: { ETag: source.etag } },
  );
}

async function update(request: Request, context: Context, mode: "replace" | "merge") {
  const auth = await authorize(request, "engineer");
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const ifMatch = request.headers.get("if-match");
  if (!ifMatch) return problem(428, 'If-Match is required: send the ETag from GET /api/components/:name (or "*" to overwrite)');
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const catalog = await getCatalog();
  const result = await catalog.update(name.name, { mode, body: body.body, ifMatch, author: auth.user });
  await auditComponentUpdate(request, auth.user, name.name, result);
  const { db } = await getPortalDb();
  const favorite = result.ok ? (await favoriteSet(db, auth.user.id)).has(name.name) : false;
  return updateResponse(result, favorite);
}

export function PUT(request: Request, context: Context) {
  return update(request, context, "replace");
}

export function PATCH(request: Request, context: Context) {
  return update(request, context, "merge");
}
