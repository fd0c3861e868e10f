/**
 * Edits of a component's record follow the rule of config edits: operators and the component's owners
 * (as the record says before the edit) commit to the default branch; everyone else's edit, checked
 * exactly as a commit would be (If-Match, validation, comments and key order kept), is proposed as a
 * branch and a merge request of the config repository, scoped to the component, for its owners to review.
 */
import type { Author, Catalog, CatalogEntry, UpdateResult } from "../catalog/catalog";
import { ScmError, type ScmMergeRequest } from "../scm/types";
import { yamlAt, type ConfigRepository } from "./gitops/config-repo";
import type { PortalDatabase } from "./db/database";
import { PortalError } from "./errors";
import { mayCommitTo } from "./ownership";
import type { PortalUser } from "./roles";
import { recordAudit, type AuditContext, type AuditEntryInput } from "./audit";
import { changedFields } from "./audit-store";

export interface ComponentEditRequest {
  mode: "replace" | "merge";
  body: unknown;
  ifMatch: string;
}

export type ComponentEditResult =
  | { mode: "commit"; result: UpdateResult }
  /** entry: the record as committed (unchanged until the merge); proposed: the record the request would make. */
  | { mode: "merge_request"; mergeRequest: ScmMergeRequest; entry: CatalogEntry; proposed: CatalogEntry["component"]; proposedText: string };

/**
 * Commits or proposes an edit. With `audit` (who asked), an edit that changed the record is audited right
 * after its commit or merge request (component.update with the fields it changed, or merge-request.propose).
 */
export async function editComponent(
  deps: { db: PortalDatabase; catalog: Catalog; config: ConfigRepository },
  user: Pick<PortalUser, "id" | "name" | "email" | "roles" | "groups">,
  name: string,
  request: ComponentEditRequest,
  audit?: AuditContext,
): Promise<ComponentEditResult> {
  const edit = await commitOrPropose(deps, user, name, request);
  if (audit && (edit.mode === "merge_request" || edit.result.changed)) {
    await recordAudit(deps.db, audit, edit.mode === "merge_request" ? proposalEntry(name, edit) : await updateEntry(deps.catalog, name, edit.result), "after-remote-change");
  }
  return edit;
}

/** What a committed edit changed: the fields that differ from the record before the commit. */
async function updateEntry(catalog: Catalog, name: string, result: UpdateResult): Promise<AuditEntryInput> {
  const before = result.commit ? await yamlAt(catalog, `${result.commit}^`, result.entry.file) : null;
  const diff = changedFields(before ?? {}, result.entry.component);
  return {
    action: "component.update",
    targetType: "component",
    target: name,
    component: name,
    summary: `edited ${name}: ${diff.fields.slice(0, 5).join(", ") || "record"}${diff.fields.length > 5 ? ` and ${diff.fields.length - 5} more` : ""}`,
    before: before === null ? null : diff.before,
    after: { ...diff.after, commit: result.commit ?? null },
  };
}

function proposalEntry(name: string, edit: Extract<ComponentEditResult, { mode: "merge_request" }>): AuditEntryInput {
  const diff = changedFields(edit.entry.component, edit.proposed);
  return {
    action: "merge-request.propose",
    targetType: "component",
    target: name,
    component: name,
    summary: `proposed a change to ${name} (${diff.fields.slice(0, 5).join(", ") || "record"}) in merge request !${edit.mergeRequest.iid}`,
    before: diff.before,
    after: { ...diff.after, mergeRequest: edit.mergeRequest.iid },
  };
}

async function commitOrPropose(
  deps: { catalog: Catalog; config: ConfigRepository },
  user: Pick<PortalUser, "id" | "name" | "email" | "roles" | "groups">,
  name: string,
  request: ComponentEditRequest,
): Promise<ComponentEditResult> {
  const author: Author = { id: user.id, name: user.name, email: user.email };
  if (mayCommitTo(deps.catalog, user, name)) {
    return { mode: "commit", result: await deps.catalog.update(name, { ...request, author }) };
  }
  const rendered = await deps.catalog.renderUpdate(name, request);
  if (!rendered.changed) return { mode: "commit", result: { ok: true, entry: rendered.entry, text: rendered.text, changed: false } };
  try {
    const mergeRequest = await deps.config.propose({
      scope: name,
      files: [{ path: rendered.entry.file, content: rendered.newText }],
      title: `Record of ${name}`,
      description: `Proposed in the portal by ${user.id}.\n\nComponent: ${name}\nFile: ${rendered.entry.file}`,
      author,
    });
    return { mode: "merge_request", mergeRequest, entry: rendered.entry, proposed: rendered.component, proposedText: rendered.newText };
  } catch (e) {
    if (e instanceof ScmError) throw new PortalError(e.code === "conflict" ? "conflict" : "source-control-failed", `the change could not be proposed: ${e.message}`, { cause: e });
    throw e;
  }
}
