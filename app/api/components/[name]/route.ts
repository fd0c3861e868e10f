// GET, PUT (replace) and PATCH (JSON merge patch) /api/components/:name.
// Writes need If-Match (the ETag of the GET, or "*"; 428 precondition-required without); a stale one answers
// 412 precondition-failed with the current ETag (body and header); an invalid record 422 invalid-record.
// Operators and the component's owners commit (200); anyone else's valid edit is proposed as a merge
// request of the config repository (202 {mergeRequest, reviewUrl}), the record unchanged until it is merged.
import { z } from "zod";
import type { UpdateResult } from "@/lib/catalog/catalog";
import { etagMatches } from "@/lib/catalog/record-update";
import { NO_RELATIONS } from "@/lib/catalog/relations";
import { favoriteSet } from "@/lib/portal/favorites";
import { componentNotFound, componentParams, GITOPS_FAILURES, ifMatchRequired, json, nonJson, route, type Answer } from "@/lib/portal/http";
import { CommittedAnswer, ComponentAnswer, ComponentMergePatch, ComponentReplace, ProposalAnswer } from "@/lib/portal/contracts/components";
import { auditContextOf } from "@/lib/portal/audit";
import { editComponent, type ComponentEditResult } from "@/lib/portal/component-edits";
import { mayCommit } from "@/lib/portal/ownership";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The record, its YAML and ETag", schema: ComponentAnswer }, 304: { description: "Not modified: the record's file is unchanged (If-None-Match matched the ETag). Its relations come from other records too and may have moved: a page that shows them asks without If-None-Match", noBody: true } }, errors: ["not-found"] },
  params: componentParams,
  headers: z.object({ "if-none-match": z.string().optional() }),
  handler: async ({ user, params: { name }, headers, services }) => {
    const catalog = await services.catalog();
    const source = await catalog.source(name);
    if (!source) throw componentNotFound(name);
    const ifNoneMatch = headers["if-none-match"];
    if (ifNoneMatch && etagMatches(ifNoneMatch, source.etag)) return nonJson(new Response(null, { status: 304, headers: { ETag: source.etag } }));
    const db = await services.db();
    const favorite = (await favoriteSet(db, user.id)).has(name);
    const { entry } = source;
    return json(
      {
        name: entry.name,
        file: entry.file,
        component: entry.component,
        etag: source.etag,
        stale: entry.stale,
        staleReason: entry.staleReason ?? null,
        yaml: source.text,
        favorite,
        canCommit: mayCommit(user, entry.component),
        relations: catalog.relations.view(entry.name) ?? NO_RELATIONS,
      },
      { headers: { ETag: source.etag } },
    );
  },
});


function update(mode: "replace" | "merge") {
  return route({
    doc: {
      requestBody: mode === "replace" ? ComponentReplace : ComponentMergePatch,
      responses: {
        200: { description: "Committed (operators and the component's owners)", schema: CommittedAnswer },
        202: { description: "Proposed as a merge request {mergeRequest, reviewUrl}; the record is unchanged until it is merged", schema: ProposalAnswer },
      },
      errors: ["not-found", "precondition-required", "precondition-failed", "invalid-record", ...GITOPS_FAILURES],
    },
    role: "engineer",
    params: componentParams,
    headers: ifMatchRequired('GET /api/components/:name (or "*" to overwrite)'),
    // The record (PUT) or the merge patch (PATCH); the catalog validates it (throws invalid-record with issues).
    body: z.unknown(),
    handler: async ({ request, user, params: { name }, headers, body, services }) => {
      const edit = await editComponent(await services.gitops(), user, name, { mode, body, ifMatch: headers["if-match"] }, auditContextOf(request, user));
      if (edit.mode === "merge_request") return proposalResponse(edit);
      const db = await services.db();
      const favorite = (await favoriteSet(db, user.id)).has(name);
      return updateResponse(edit.result, favorite);
    },
  });
}

export const PUT = update("replace");
export const PATCH = update("merge");

function proposalResponse(edit: Extract<ComponentEditResult, { mode: "merge_request" }>): Answer<ProposalAnswer> {
  const { entry, mergeRequest } = edit;
  return json(
    {
      name: entry.name,
      file: entry.file,
      mergeRequest,
      reviewUrl: `/reviews/${mergeRequest.iid}`,
      // The record as committed (unchanged until the request is merged), and what was proposed.
      component: entry.component,
      etag: entry.etag,
      proposed: edit.proposed,
      proposedYaml: edit.proposedText,
    },
    { status: 202, headers: { ETag: entry.etag } },
  );
}

function updateResponse(result: UpdateResult, favorite: boolean): Answer<CommittedAnswer> {
  const { entry } = result;
  return json(
    { name: entry.name, file: entry.file, component: entry.component, etag: entry.etag, stale: entry.stale, yaml: result.text, changed: result.changed, commit: result.commit ?? null, favorite },
    { headers: { ETag: entry.etag } },
  );
}
