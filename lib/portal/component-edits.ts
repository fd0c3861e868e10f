/**
 * Edits of a component's record follow the rule of config edits: operators and the component's owners
 * (as the record says before the edit) commit to the default branch; everyone else's edit, checked
 * exactly as a commit would be (If-Match, validation, comments and key order kept), is proposed as a
 * branch and a merge request of the config repository, scoped to the component, for its owners to review.
 */
import type { Author, Catalog, CatalogEntry, UpdateResult } from "../catalog/catalog";
import { ScmError, type ScmMergeRequest } from "../scm/types";
import type { ConfigRepository } from "./gitops/config-repo";
import { PortalError } from "./errors";
import { mayCommitTo } from "./ownership";
import type { PortalUser } from "./roles";

export interface ComponentEditRequest {
  mode: "replace" | "merge";
  body: unknown;
  ifMatch: string;
}

export type ComponentEditResult =
  | { mode: "commit"; result: UpdateResult }
  /** entry: the record as committed (unchanged until the merge); proposed: the record the request would make. */
  | { mode: "merge_request"; mergeRequest: ScmMergeRequest; entry: CatalogEntry; proposed: CatalogEntry["component"]; proposedText: string };

export async function editComponent(
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
