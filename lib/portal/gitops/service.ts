/**
 * The process-wide GitOps wiring of the portal (kept on globalThis like the catalog and the database):
 * - the component provider from SCM_PROVIDER (local: DATA_DIR/repos, merge requests in the portal DB,
 *   demo repositories created at first start; gitlab: GITLAB_URL + GITLAB_TOKEN);
 * - the config repository: the catalog's working copy; its merge requests go to GitLab when
 *   SCM_PROVIDER=gitlab and CONFIG_REPO_URL names a project there, else to a local provider that serves
 *   the working copy as repository "portal/config" (merges run under the catalog's write lock).
 */
import { getEnv } from "../../env";
import { getCatalog } from "../../catalog/service";
import type { Catalog } from "../../catalog/catalog";
import { getPortalDb } from "../db";
import { createScmProvider, dbMergeRequestStore, ensureDemoRepositories, GitLabScmProvider, LocalScmProvider, localReposRoot, type ScmProvider } from "../../scm";
import { ConfigRepository, type ConfigRepoTarget } from "./config-repo";
import { deployedVersions, type Db } from "./releases";

export const LOCAL_CONFIG_REPO = "portal/config";

export interface GitOps {
  db: Db;
  scm: ScmProvider;
  catalog: Catalog;
  config: ConfigRepository;
}

const globalForGitOps = globalThis as unknown as { __portalGitOps?: Promise<GitOps> };

/** <group>/<project> of a GitLab URL (https://host/group/project(.git) or git@host:group/project.git). */
export function projectPathOf(url: string): string | null {
  const m = /^(?:https?:\/\/[^/]+\/|git@[^:]+:|ssh:\/\/[^/]+\/)(.+?)(?:\.git)?\/?$/.exec(url.trim());
  return m && m[1].includes("/") ? m[1] : null;
}

async function open(): Promise<GitOps> {
  const env = getEnv();
  const { db } = await getPortalDb();
  const catalog = await getCatalog();
  const store = dbMergeRequestStore(db);
  const scm = createScmProvider({ provider: env.SCM_PROVIDER, dataDir: env.DATA_DIR, gitlabUrl: env.GITLAB_URL, gitlabToken: env.GITLAB_TOKEN, store });
  if (scm instanceof LocalScmProvider) {
    await ensureDemoRepositories(scm).catch((e: unknown) => console.error(`[portal] demo repositories: ${(e as Error).message}`));
  }
  let target: ConfigRepoTarget;
  const remoteProject = env.CONFIG_REPO_URL ? projectPathOf(env.CONFIG_REPO_URL) : null;
  if (scm instanceof GitLabScmProvider && remoteProject) target = { provider: scm, repo: remoteProject };
  else {
    const provider = new LocalScmProvider({
      root: localReposRoot(env.DATA_DIR),
      store,
      workingCopies: {
        [LOCAL_CONFIG_REPO]: {
          dir: catalog.repo.dir,
          exclusive: (fn) => catalog.exclusive(fn),
          afterChange: async () => {
            await catalog.refresh({ pull: false });
          },
        },
      },
    });
    target = { provider, repo: LOCAL_CONFIG_REPO };
  }
  return { db, scm, catalog, config: new ConfigRepository(catalog, target) };
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
