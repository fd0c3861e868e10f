// Browser-side calls of the GitOps API, on the portal's one fetch client, and their query keys.
import type { ConfigAnswer, ConfigView, ConfigWriteResult } from "@/lib/portal/gitops/environment-config";
import type { Release, ReleaseEnvironment } from "@/lib/portal/gitops/releases";
import type { ComponentMergeRequests } from "@/lib/portal/gitops/merge-requests";
import type { ImportableRepository, ImportRequest, ImportResult } from "@/lib/portal/gitops/import";
import type { ConfigPatch } from "@/lib/portal/gitops/config-values";
import type { ScmMergeRequest, ScmOwner, ScmPage } from "@/lib/scm/types";
import { apiFetch } from "@/components/http/api-client";

export type { ConfigAnswer, ConfigView, ConfigWriteResult, Release, ReleaseEnvironment, ComponentMergeRequests, ImportableRepository, ImportRequest, ImportResult, ScmMergeRequest, ScmOwner };

const base = (name: string) => `/api/components/${encodeURIComponent(name)}`;

export const gitopsKeys = {
  all: (name: string) => ["gitops", name] as const,
  config: (name: string, view: ConfigView) => ["gitops", name, "config", view] as const,
  releases: (name: string) => ["gitops", name, "releases"] as const,
  mergeRequests: (name: string) => ["gitops", name, "merge-requests"] as const,
};

export function fetchConfig(name: string, view: ConfigView, signal?: AbortSignal): Promise<ConfigAnswer> {
  return apiFetch(`${base(name)}/config?view=${view}`, { signal });
}

export function saveConfig(name: string, body: { environment: string; values: ConfigPatch; view?: ConfigView }): Promise<ConfigWriteResult> {
  return apiFetch(`${base(name)}/config`, { method: "POST", json: body });
}

export function saveConfigBulk(name: string, body: { updates: Array<{ environment: string; values: ConfigPatch }>; view?: ConfigView }): Promise<ConfigWriteResult> {
  return apiFetch(`${base(name)}/config/bulk`, { method: "POST", json: body });
}

export interface ReleasesAnswer {
  name: string;
  environment: ReleaseEnvironment | null;
  current: string | null;
  releases: Release[];
}

export type ReleaseRequest = { environment: ReleaseEnvironment; sourceRef?: string; releaseType?: "major" | "minor" };

export function fetchReleases(name: string, signal?: AbortSignal): Promise<ReleasesAnswer> {
  return apiFetch(`${base(name)}/releases`, { signal });
}

export function createRelease(name: string, body: ReleaseRequest): Promise<Release> {
  return apiFetch(`${base(name)}/releases`, { method: "POST", json: body });
}

export function fetchMergeRequests(name: string, signal?: AbortSignal): Promise<ComponentMergeRequests> {
  return apiFetch(`${base(name)}/open-merge-requests`, { signal });
}

export function fetchOwners(signal?: AbortSignal): Promise<{ owners: ScmOwner[] }> {
  return apiFetch("/api/import/owners", { signal });
}

export function fetchRepositories(params: { owner: string; search?: string; page?: number }, signal?: AbortSignal): Promise<ScmPage<ImportableRepository>> {
  const q = new URLSearchParams({ owner: params.owner, perPage: "50", page: String(params.page ?? 1) });
  if (params.search) q.set("search", params.search);
  return apiFetch(`/api/import/repositories?${q}`, { signal });
}

export interface ImportAnswer {
  results: ImportResult[];
  commit: string | null;
  mergeRequest: ScmMergeRequest | null;
}

export function importComponents(repositories: Array<string | ImportRequest>, dryRun = false): Promise<ImportAnswer> {
  return apiFetch("/api/import/components", { method: "POST", json: { repositories, ...(dryRun ? { dryRun } : {}) } });
}
