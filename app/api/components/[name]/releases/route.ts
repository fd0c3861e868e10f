// GET  /api/components/:name/releases?environment=staging|production  → {name, environment, current, releases: Release[]}
// POST /api/components/:name/releases {environment, sourceRef?, releaseType?} (operator) → 201 Release
import { z } from "zod";
import { createRelease, listReleases } from "@/lib/portal/gitops/releases";
import { componentNotFound, componentParams, GITOPS_FAILURES, json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";
import { auditRelease } from "@/lib/portal/audit-recorder";

export const dynamic = "force-dynamic";

const environmentSchema = z.enum(["staging", "production"], { error: "environment must be staging or production" });
const bodySchema = z.strictObject({
  environment: environmentSchema,
  sourceRef: z.string().trim().min(1).max(200).optional(),
  releaseType: z.enum(["major", "minor"], { error: "releaseType must be major or minor" }).optional(),
});

export const GET = route({
  doc: { errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  params: componentParams,
  query: z.object({ environment: environmentSchema.optional() }),
  handler: async ({ params: { name }, query: { environment }, services }) => {
    const g = await services.gitops();
    if (!g.catalog.get(name)) throw componentNotFound(name);
    const releases = await listReleases(g.db, name, environment);
    return json({ name, environment: environment ?? null, current: environment ? (releases[0]?.version ?? null) : null, releases });
  },
});

export const POST = route({
  doc: { responses: { 201: { description: "The release: version, commit, who and when" } }, errors: ["not-found", "not-releasable", "already-released", ...GITOPS_FAILURES] },
  role: "operator",
  params: componentParams,
  body: bodySchema,
  handler: async ({ request, user, params: { name }, body, services }) => {
    const release = await createRelease(await services.gitops(), name, body, { id: user.id, name: user.name, email: user.email });
    await auditRelease(services, request, user, name, release);
    return json(release, { status: 201 });
  },
});
