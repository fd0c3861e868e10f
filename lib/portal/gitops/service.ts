/**
 * The process-wide GitOps wiring of the portal (kept on globalThis like the catalog and the database):
 * - the component provider from SCM_PROVIDER (local: DATA_DIR/repos, merge requests in the portal DB,
 *   demo repositories created at first start; gitlab: GITLAB_URL + GITLAB_TOKEN);
 * - the config repository: the catalog's repository; its merge requests go to GitLab when
 *   SCM_PROVIDER=gitlab and CONFIG_REPO_URL names a project there, else to a local provider that serves
 *   it as repository "portal/config" (merges go through the catalog's one writer). See wiring.ts.
 */
import { getEnv } from "../../env";
import { getCatalog } from "../../catalog/service";
import { getPortalDb } from "../db";
import { deployedVersions } from "./releases";
import { wireGitOps, type GitOps } from "./wiring";

export { LOCAL_CONFIG_REPO, projectPathOf, type GitOps } from "./wiring";

const globalForGitOps = globalThis as unknown as { __portalGitOps?: Promise<GitOps> };

async function open(): Promise<GitOps> {
  const env = getEnv();
  const { db } = await getPortalDb();
  const catalog = await getCatalog();
  return wireGitOps(db, catalog, {
    provider: env.SCM_PROVIDER,
    dataDir: env.DATA_DIR,
    gitlabUrl: env.GITLAB_URL,
    gitlabToken: env.GITLAB_TOKEN,
    configRepoUrl: env.CONFIG_REPO_URL || undefined,
  });
}

export function getGitOps(): Promise<GitOps> {
  if (!globalForGitOps.__portalGitOps) {
    const opening = open();
    opening.catch(() => {
      if (globalForGitOps.__portalGitOps === opening) delete globalForGitOps.__portalGitOps;
    });
    globalForGitOps.__portalGitOps = opening;
  }
  return globalForGitOps.__portalGitOps;
}

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
