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

/** What an edit by someone who may not commit answers (202): the merge request it opened. */
export interface ProposalAnswer {
  name: string;
  mergeRequest: { iid: number; title: string; sourceBranch: string; webUrl: string | null };
  reviewUrl: string;
}

export function isProposal(answer: ComponentAnswer | ProposalAnswer): answer is ProposalAnswer {
  return "mergeRequest" in answer;
}

/**
 * Replaces the record, if it is still the version loaded with `etag` (refused precondition-failed otherwise):
 * committed for operators and owners, proposed as a merge request for anyone else.
 */
export function saveComponent(name: string, component: Component, etag: string): Promise<ComponentAnswer | ProposalAnswer> {
  return apiFetch(base(name), { method: "PUT", json: component, headers: { "If-Match": etag } });
}
