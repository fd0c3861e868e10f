import type { ComponentMergeRequests } from "../contracts/gitops";
/** Open merge requests of a component: its repository's, and the config repository's scoped to it (branch portal/<name>/…). */
import type { Catalog } from "../../catalog/catalog";
import { ScmError, type ScmProvider } from "../../scm/types";
import type { ConfigRepository } from "./config-repo";
import { componentNotFound } from "../errors";

export type { ComponentMergeRequests } from "../contracts/gitops";

export async function openMergeRequests(deps: { scm: ScmProvider; catalog: Catalog; config: ConfigRepository }, name: string): Promise<ComponentMergeRequests> {
  const entry = deps.catalog.get(name);
  if (!entry) throw componentNotFound(name);
  const repository = entry.component.spec.repo.path;
  const errors: string[] = [];
  const out: ComponentMergeRequests["mergeRequests"] = [];
  try {
    for (const m of await deps.scm.listMergeRequests(repository, { state: "opened" })) out.push({ ...m, source: "component" });
  } catch (e) {
    errors.push(`${repository}: ${e instanceof ScmError ? e.message : (e as Error).message}`);
  }
  try {
    for (const m of await deps.config.openMergeRequests(name)) out.push({ ...m, source: "config" });
  } catch (e) {
    errors.push(`config repository: ${(e as Error).message}`);
  }
  out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return { name, repository, mergeRequests: out, errors };
}
