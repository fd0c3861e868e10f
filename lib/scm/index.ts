/**
 * lib/scm: the source-control provider interface and its adapters.
 * createScmProvider() builds the provider the settings name; the portal wires it in
 * lib/portal/gitops/providers.ts (database store, config repository working copy, demo repositories).
 */
import "server-only";
import path from "node:path";
import { GitLabScmProvider } from "./gitlab";
import { LocalScmProvider, type WorkingCopy } from "./local";
import type { MergeRequestStore } from "./merge-request-store";
import type { ScmProvider } from "./types";

export * from "./types";
export { LocalScmProvider, type WorkingCopy } from "./local";
export { GitLabScmProvider } from "./gitlab";
export { memoryMergeRequestStore, type MergeRequestStore, type MergeRequestRecord, type NewMergeRequest } from "./merge-request-store";
export { ensureDemoRepositories, DEMO_REPOSITORIES } from "./demo";

export interface ScmSettings {
  provider: "local" | "gitlab";
  dataDir: string;
  gitlabUrl: string;
  gitlabToken?: string;
  store: MergeRequestStore;
  workingCopies?: Record<string, WorkingCopy>;
}

export function localReposRoot(dataDir: string): string {
  return path.resolve(dataDir, "repos");
}

export function createScmProvider(settings: ScmSettings): ScmProvider {
  if (settings.provider === "gitlab") {
    if (!settings.gitlabToken) throw new Error("SCM_PROVIDER=gitlab needs GITLAB_TOKEN (a token with api scope)");
    return new GitLabScmProvider({ baseUrl: settings.gitlabUrl, token: settings.gitlabToken });
  }
  return new LocalScmProvider({ root: localReposRoot(settings.dataDir), store: settings.store, workingCopies: settings.workingCopies });
}
