// Browser-side calls of the catalog API (same origin; the session cookie authenticates).
import type { ListResult } from "@/lib/catalog/search";
import type { Component, FieldIssue } from "@/lib/catalog/schema";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: { message?: string; issues?: FieldIssue[]; etag?: string } = {},
  ) {
    super(message);
  }
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { Accept: "application/json", ...(init?.body ? { "Content-Type": "application/json" } : {}), ...init?.headers } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, (body as { message?: string }).message ?? `HTTP ${res.status}`, body);
  return body as T;
}

export function fetchList(params: string, signal?: AbortSignal): Promise<ListResult> {
  return call<ListResult>(`/api/components?${params}`, { signal });
}

export function setFavorite(name: string, favorite: boolean): Promise<{ name: string; favorite: boolean }> {
  return call(`/api/components/${encodeURIComponent(name)}/favorite`, { method: favorite ? "POST" : "DELETE" });
}

export interface ComponentAnswer {
  name: string;
  file: string;
  component: Component;
  etag: string;
  stale: boolean;
  yaml: string;
  favorite: boolean;
}

export function saveComponent(name: string, component: Component, etag: string): Promise<ComponentAnswer> {
  return call(`/api/components/${encodeURIComponent(name)}`, { method: "PUT", body: JSON.stringify(component), headers: { "If-Match": etag } });
}
