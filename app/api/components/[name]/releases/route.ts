// GET  /api/components/:name/releases?environment=staging|production  → {name, environment, current, releases: Release[]}
// POST /api/components/:name/releases {environment, sourceRef?, releaseType?} (operator) → 201 Release
import { Release, ReleaseEnvironment, ReleaseRequest, ReleasesAnswer } from "@/lib/portal/contracts/gitops";
import { z } from "zod";
import { createRelease, listReleases } from "@/lib/portal/gitops/releases";
import { componentNotFound, componentParams, GITOPS_FAILURES, json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";
import { auditContextOf } from "@/lib/portal/audit";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Releases, newest first", schema: ReleasesAnswer } }, errors: ["not-found", ...SOURCE_CONTROL_FAILURES] },
  params: componentParams,
  query: z.object({ environment: ReleaseEnvironment.optional() }),
  handler: async ({ params: { name }, query: { environment }, services }) => {
    const g = await services.gitops();
    if (!g.catalog.get(name)) throw componentNotFound(name);
    const releases = await listReleases(g.db, name, environment);
    return json({ name, environment: environment ?? null, current: environment ? (releases[0]?.version ?? null) : null, releases });
  },
});

export const POST = route({
  doc: { responses: { 201: { description: "The release: version, commit, who and when", schema: Release } }, errors: ["not-found", "not-releasable", "already-released", ...GITOPS_FAILURES] },
  role: "operator",
  params: componentParams,
  body: ReleaseRequest,
  handler: async ({ request, user, params: { name }, body, services }) => {
    const release = await createRelease(await services.gitops(), name, body, { id: user.id, name: user.name, email: user.email }, auditContextOf(request, user));
    return json(release, { status: 201 });
  },
});
