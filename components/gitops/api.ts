// Browser-side calls of the GitOps API (same origin; the session cookie authenticates) and their query keys.
import type { ConfigAnswer, ConfigView, ConfigWriteResult } from "@/lib/portal/gitops/config";
import type { Release, ReleaseEnvironment } from "@/lib/portal/gitops/releases";
import type { ComponentMergeRequests } from "@/lib/portal/gitops/merge-requests";
import type { ImportableRepository, ImportRequest, ImportResult } from "@/lib/portal/gitops/import";
import type { ConfigPatch } from "@/lib/portal/gitops/values";
import type { ScmMergeRequest, ScmOwner, ScmPage } from "@/lib/scm/types";

export type { ConfigAnswer, ConfigView, ConfigWriteResult, Release, ReleaseEnvironment, ComponentMergeRequests, ImportableRepository, ImportRequest, ImportResult, ScmMergeRequest, ScmOwner };

export class GitOpsApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: { message?: string; issues?: Array<{ path: string; message: string }>; requiredRole?: string } = {},
  ) {
    super(message);
  }
}

/** A readable sentence for an error answer: the message, the issues it names, the role it needs. */
export function describeError(e: unknown): string {
  if (e instanceof GitOpsApiError) {
    if (e.status === 401) return "You are signed out. Sign in again.";
    if (e.status === 403 && e.body.requiredRole) return `This needs the ${e.body.requiredRole} role.`;
    const issues = e.body.issues?.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
    return issues ? `${e.message}: ${issues}` : e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { Accept: "application/json", ...(init?.body ? { "Content-Type": "application/json" } : {}), ...init?.headers } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new GitOpsApiError(res.status, (body as { message?: string }).message ?? `HTTP ${res.status}`, body);
  return body as T;
}

const base = (name: string) => `/api/components/${encodeURIComponent(name)}`;

export const gitopsKeys = {
  all: (name: string) => ["gitops", name] as const,
  config: (name: string, view: ConfigView) => ["gitops", name, "config", view] as const,
  releases: (name: string) => ["gitops", name, "releases"] as const,
  mergeRequests: (name: string) => ["gitops", name, "merge-requests"] as const,
};

export function fetchConfig(name: string, view: ConfigView, signal?: AbortSignal): Promise<ConfigAnswer> {
  return call(`${base(name)}/config?view=${view}`, { signal });
}

export function saveConfig(name: string, body: { environment: string; values: ConfigPatch; view?: ConfigView }): Promise<ConfigWriteResult> {
  return call(`${base(name)}/config`, { method: "POST", body: JSON.stringify(body) });
}

export function saveConfigBulk(name: string, body: { updates: Array<{ environment: string; values: ConfigPatch }>; view?: ConfigView }): Promise<ConfigWriteResult> {
  return call(`${base(name)}/config/bulk`, { method: "POST", body: JSON.stringify(body) });
}

export interface ReleasesAnswer {
  name: string;
  environment: ReleaseEnvironment | null;
  current: string | null;
  releases: Release[];
}

export function fetchReleases(name: string, signal?: AbortSignal): Promise<ReleasesAnswer> {
  return call(`${base(name)}/releases`, { signal });
}

export function createRelease(name: string, body: { environment: ReleaseEnvironment; sourceRef?: string; releaseType?: "major" | "minor" }): Promise<Release> {
  return call(`${base(name)}/releases`, { method: "POST", body: JSON.stringify(body) });
}

export function fetchMergeRequests(name: string, signal?: AbortSignal): Promise<ComponentMergeRequests> {
  return call(`${base(name)}/open-merge-requests`, { signal });
}

export function fetchOwners(signal?: AbortSignal): Promise<{ owners: ScmOwner[] }> {
  return call("/api/import/owners", { signal });
}

export function fetchRepositories(params: { owner: string; search?: string; page?: number }, signal?: AbortSignal): Promise<ScmPage<ImportableRepository>> {
  const q = new URLSearchParams({ owner: params.owner, perPage: "50", page: String(params.page ?? 1) });
  if (params.search) q.set("search", params.search);
  return call(`/api/import/repositories?${q}`, { signal });
}

export interface ImportAnswer {
  results: ImportResult[];
  commit: string | null;
  mergeRequest: ScmMergeRequest | null;
}

export function importComponents(repositories: Array<string | ImportRequest>, dryRun = false): Promise<ImportAnswer> {
  return call("/api/import/components", { method: "POST", body: JSON.stringify({ repositories, ...(dryRun ? { dryRun } : {}) }) });
}

/** "3 minutes ago"-style text for a timestamp, with the exact time for a title attribute. */
export function when(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "—";
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  if (s < 90) return "a minute ago";
  const m = Math.round(s / 60);
  if (m < 60) return `${m} minutes ago`;
  const h = Math.round(m / 60);
  if (h < 24) return h === 1 ? "an hour ago" : `${h} hours ago`;
  const d = Math.round(h / 24);
  if (d < 30) return d === 1 ? "yesterday" : `${d} days ago`;
  return new Date(t).toISOString().slice(0, 10);
}
