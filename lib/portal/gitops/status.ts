/**
 * What lib/catalog's status wants from GitOps: componentStatus(entry, await gitopsStatusExtra(gitops, name)).
 * Open merge requests count the component repository's and the config repository's scoped to it.
 */
import { openMergeRequests } from "./merge-requests";
import { deployedVersions } from "./releases";
import type { GitOps } from "./providers";

export async function gitopsStatusExtra(g: GitOps, name: string): Promise<{ deployedVersions: Partial<Record<string, string>>; openMergeRequests: number }> {
  const mrs = await openMergeRequests(g, name).catch(() => ({ mergeRequests: [] }));
  return { deployedVersions: await deployedVersions(g.db, name), openMergeRequests: mrs.mergeRequests.length };
}
