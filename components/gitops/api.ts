// Browser-side calls of the GitOps API, on the portal's one fetch client, and their query keys. The answers'
// types are the routes' own contract (lib/portal/contracts/gitops.ts).
import type {
  ComponentMergeRequests,
  ConfigAnswer,
  ConfigBulkChange,
  ConfigChange,
  ConfigView,
  ConfigWriteResult,
  ImportableRepository,
  ImportAnswer,
  ImportChoice,
  ImportFormat,
  ImportResult,
  UnmappedField,
  Owner,
  Release,
  ReleaseEnvironment,
  ReleaseRequest,
  ReleasesAnswer,
  RepositoryPage,
} from "@/lib/portal/contracts/gitops";
import type { MergeRequest } from "@/lib/portal/contracts/shared";
import { apiFetch } from "@/components/http/api-client";

export type { ConfigAnswer, ConfigView, ConfigWriteResult, Release, ReleaseEnvironment, ReleaseRequest, ReleasesAnswer, ComponentMergeRequests, ImportableRepository, ImportAnswer, ImportFormat, ImportResult, UnmappedField };
/** A repository to import with the kind chosen at review. */
export type ImportRequest = ImportChoice;
export type ScmMergeRequest = MergeRequest;
export type ScmOwner = Owner;

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

export function saveConfig(name: string, body: ConfigChange): Promise<ConfigWriteResult> {
  return apiFetch(`${base(name)}/config`, { method: "POST", json: body });
}

export function saveConfigBulk(name: string, body: ConfigBulkChange): Promise<ConfigWriteResult> {
  return apiFetch(`${base(name)}/config/bulk`, { method: "POST", json: body });
}

export function fetchReleases(name: string, signal?: AbortSignal): Promise<ReleasesAnswer> {
  return apiFetch(`${base(name)}/releases`, { signal });
}

export function createRelease(name: string, body: ReleaseRequest): Promise<Release> {
  return apiFetch(`${base(name)}/releases`, { method: "POST", json: body });
}

export function fetchMergeRequests(name: string, signal?: AbortSignal): Promise<ComponentMergeRequests> {
  return apiFetch(`${base(name)}/open-merge-requests`, { signal });
}

export function fetchOwners(signal?: AbortSignal): Promise<{ owners: Owner[] }> {
  return apiFetch("/api/import/owners", { signal });
}

export function fetchRepositories(params: { owner: string; search?: string; page?: number }, signal?: AbortSignal): Promise<RepositoryPage> {
  const q = new URLSearchParams({ owner: params.owner, perPage: "50", page: String(params.page ?? 1) });
  if (params.search) q.set("search", params.search);
  return apiFetch(`/api/import/repositories?${q}`, { signal });
}

export function importComponents(repositories: Array<string | ImportRequest>, dryRun = false, format: ImportFormat = "inferred"): Promise<ImportAnswer> {
  return apiFetch("/api/import/components", { method: "POST", json: { repositories, ...(dryRun ? { dryRun } : {}), ...(format === "inferred" ? {} : { format }) } });
}
