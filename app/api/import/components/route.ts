// POST /api/import/components {repositories: ["group/project" | {path, kind?}, …], dryRun?, format?}
// Operators: one commit to the config repository (201); others: one merge request (202).
// format "backstage": the records of each repository's catalog-info.yaml entities, always one merge request
// (202), with `unmapped`: what did not map, per entity and field (in the dry run too: the preview).
// {path, kind}: the kind chosen at review replaces the inferred one. dryRun: true infers the records and
// answers them (status "ready", 200) without writing anything (the import wizard's review step).
// → {results: [{repository, status: imported|proposed|exists|failed|ready, name, kind, inferredKind, reasons, message, component?, entity?}], commit, mergeRequest, unmapped?}
import { ImportAnswer, ImportRequest } from "@/lib/portal/contracts/gitops";
import { hasRole } from "@/lib/portal/roles";
import { importRepositories } from "@/lib/portal/gitops/import";
import { auditContextOf } from "@/lib/portal/audit";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: {
    responses: {
      200: { description: "Nothing to write", schema: ImportAnswer },
      201: { description: "Committed (operators)", schema: ImportAnswer },
      202: { description: "Proposed as a merge request", schema: ImportAnswer },
    },
    errors: ["invalid-record", "name-taken", ...GITOPS_FAILURES],
  },
  body: ImportRequest,
  handler: async ({ request, user, body, services }) => {
    // A Backstage import is always proposed: the mapping loses fields, and its merge request says which.
    const direct = hasRole(user, "operator") && body.format !== "backstage";
    const dryRun = body.dryRun === true;
    const result = await importRepositories(await services.gitops(), body.repositories, { user: { id: user.id, name: user.name, email: user.email }, direct, dryRun, format: body.format, audit: auditContextOf(request, user) });
    const wrote = result.commit !== null || result.mergeRequest !== null;
    return json(result, { status: wrote ? (direct ? 201 : 202) : 200 });
  },
});
