// GET  /api/components/:name/releases?environment=staging|production  → {name, environment, current, releases: Release[]}
// POST /api/components/:name/releases {environment, sourceRef?, releaseType?} (operator) → 201 Release
import { z } from "zod";
import { authorize } from "@/lib/portal/guard";
import { json, nameFrom, problem, readBody } from "@/lib/catalog/http";
import { getGitOps } from "@/lib/portal/gitops/service";
import { createRelease, listReleases } from "@/lib/portal/gitops/releases";
import { errorResponse } from "@/lib/portal/gitops/http";
import { auditRelease } from "@/lib/portal/audit-log";

export const dynamic = "force-dynamic";

const environmentSchema = z.enum(["staging", "production"], { error: "environment must be staging or production" });
const bodySchema = z.strictObject({
  environment: environmentSchema,
  sourceRef: z.string().trim().min(1).max(200).optional(),
  releaseType: z.enum(["major", "minor"], { error: "releaseType must be major or minor" }).optional(),
});

type Ctx = { params: Promise<{ name: string }> };

export async function GET(request: Request, context: Ctx) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const raw = new URL(request.url).searchParams.get("environment");
  const env = raw === null ? null : environmentSchema.safeParse(raw);
  if (env && !env.success) return problem(400, "environment must be staging or production");
  try {
    const g = await getGitOps();
    if (!g.catalog.get(name.name)) return problem(404, `no component named "${name.name}"`);
    const releases = await listReleases(g.db, name.name, env?.data);
    return json({ name: name.name, environment: env?.data ?? null, current: env ? (releases[0]?.version ?? null) : null, releases });
  } catch (e) {
    return errorResponse(e);
  }
}

export async function POST(request: Request, context: Ctx) {
  const auth = await authorize(request, "operator");
  if (!auth.ok) return auth.response;
  const name = nameFrom((await context.params).name);
  if (!name.ok) return name.response;
  const parsed = await readBody(request, bodySchema);
  if (!parsed.ok) return parsed.response;
  try {
    const release = await createRelease(await getGitOps(), name.name, parsed.body, { id: auth.user.id, name: auth.user.name, email: auth.user.email });
    await auditRelease(request, auth.user, name.name, release);
    return json(release, { status: 201 });
  } catch (e) {
    return errorResponse(e);
  }
}
