/**
 * The GitOps wiring of this process's services (lib/portal/services.ts builds it, see wiring.ts):
 * - the component provider from SCM_PROVIDER (local: DATA_DIR/repos, merge requests in the portal DB,
 *   demo repositories created at first start; gitlab: GITLAB_URL + GITLAB_TOKEN);
 * - the config repository: the catalog's repository; its merge requests go to GitLab when
 *   SCM_PROVIDER=gitlab and CONFIG_REPO_URL names a project there, else to a local provider that serves
 *   it as repository "portal/config" (merges go through the catalog's one writer).
 */
import { getPortalServices } from "../services";
import { deployedVersions } from "./releases";
import type { GitOps } from "./wiring";

export { LOCAL_CONFIG_REPO, projectPathOf, type GitOps } from "./wiring";

export const getGitOps = (): Promise<GitOps> => getPortalServices().gitops();

/**
 * What lib/catalog's status wants from GitOps: componentStatus(entry, await gitopsStatusExtra(name)).
 * Open merge requests count the component repository's and the config repository's scoped to it.
 */
export async function gitopsStatusExtra(name: string): Promise<{ deployedVersions: Partial<Record<string, string>>; openMergeRequests: number }> {
  const g = await getGitOps();
  const { openMergeRequests } = await import("./merge-requests");
  const mrs = await openMergeRequests(g, name).catch(() => ({ mergeRequests: [] }));
  return { deployedVersions: await deployedVersions(g.db, name), openMergeRequests: mrs.mergeRequests.length };
}
