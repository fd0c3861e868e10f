// Browser-side calls of the catalog API, on the portal's one fetch client.
import type { ListResult } from "@/lib/catalog/search";
import type { Component } from "@/lib/catalog/schema";
import { apiFetch } from "@/components/http/api-client";

const base = (name: string) => `/api/components/${encodeURIComponent(name)}`;

export function fetchList(params: string, signal?: AbortSignal): Promise<ListResult> {
  return apiFetch(`/api/components?${params}`, { signal });
}

export function setFavorite(name: string, favorite: boolean): Promise<{ name: string; favorite: boolean }> {
  return apiFetch(`${base(name)}/favorite`, { method: favorite ? "POST" : "DELETE" });
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

/** Replaces the record, if it is still the version loaded with `etag` (refused precondition-failed otherwise). */
export function saveComponent(name: string, component: Component, etag: string): Promise<ComponentAnswer> {
  return apiFetch(base(name), { method: "PUT", json: component, headers: { "If-Match": etag } });
}
