/**
 * How the portal wires GitOps (plain TypeScript, so tests and the crash harness build exactly what a
 * portal process builds):
 * - the component provider from the settings (local: DATA_DIR/repos, merge requests in the portal DB,
 *   demo repositories created at first start; gitlab: GITLAB_URL + GITLAB_TOKEN);
 * - the config repository: the catalog's repository; its merge requests go to GitLab when the provider
 *   is gitlab and CONFIG_REPO_URL names a project there, else to a local provider that serves the
 *   catalog's repository as "portal/config", whose writes go through the catalog's one writer.
 */
import type { Catalog } from "../../catalog/catalog";
import { createScmProvider, ensureDemoRepositories, GitLabScmProvider, LocalScmProvider, localReposRoot, type MergeRequestStore, type ScmProvider } from "../../scm";
import { dbMergeRequestStore } from "./merge-request-store";
import { ConfigRepository, type ConfigRepoTarget } from "./config-repo";
import type { Db } from "./releases";

export const LOCAL_CONFIG_REPO = "portal/config";

export interface GitOps {
  db: Db;
  scm: ScmProvider;
  catalog: Catalog;
  config: ConfigRepository;
}

export interface GitOpsSettings {
  provider: "local" | "gitlab";
  dataDir: string;
  gitlabUrl: string;
  gitlabToken?: string;
  configRepoUrl?: string;
  /** Create the demo repositories of the local provider (default true). */
  demo?: boolean;
}

/** A repository's page in the configured source control: GitLab's project page; null for local repositories (no web UI). */
export function repositoryUrlOf(settings: Pick<GitOpsSettings, "provider" | "gitlabUrl">, repoPath: string): string | null {
  if (settings.provider !== "gitlab") return null;
  return `${settings.gitlabUrl.replace(/\/+$/, "")}/${repoPath.split("/").map(encodeURIComponent).join("/")}`;
}

/** <group>/<project> of a GitLab URL (https://host/group/project(.git) or git@host:group/project.git). */
export function projectPathOf(url: string): string | null {
  const m = /^(?:https?:\/\/[^/]+\/|git@[^:]+:|ssh:\/\/[^/]+\/)(.+?)(?:\.git)?\/?$/.exec(url.trim());
  return m && m[1].includes("/") ? m[1] : null;
}

/** The local provider serving the catalog's repository as "portal/config" (merges go through the catalog's writer). */
export function localConfigProvider(catalog: Catalog, options: { root: string; store: MergeRequestStore }): LocalScmProvider {
  return new LocalScmProvider({ root: options.root, store: options.store, workingCopies: { [LOCAL_CONFIG_REPO]: catalog.workingCopy() } });
}

export async function wireGitOps(db: Db, catalog: Catalog, settings: GitOpsSettings): Promise<GitOps> {
  const store = dbMergeRequestStore(db);
  const scm = createScmProvider({ provider: settings.provider, dataDir: settings.dataDir, gitlabUrl: settings.gitlabUrl, gitlabToken: settings.gitlabToken, store });
  if (scm instanceof LocalScmProvider && settings.demo !== false) {
    await ensureDemoRepositories(scm).catch((e: unknown) => console.error(`[portal] demo repositories: ${(e as Error).message}`));
  }
  let target: ConfigRepoTarget;
  const remoteProject = settings.configRepoUrl ? projectPathOf(settings.configRepoUrl) : null;
  if (scm instanceof GitLabScmProvider && remoteProject) target = { provider: scm, repo: remoteProject };
  else target = { provider: localConfigProvider(catalog, { root: localReposRoot(settings.dataDir), store }), repo: LOCAL_CONFIG_REPO };
  return { db, scm, catalog, config: new ConfigRepository(catalog, target) };
}
