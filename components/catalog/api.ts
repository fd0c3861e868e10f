// Browser-side calls of the catalog API, on the portal's one fetch client. The answers' types are the
// route's own contract (lib/portal/contracts/components.ts).
import type { Component } from "@/lib/catalog/schema";
import type { CommittedAnswer, ComponentAnswer, ComponentList, FavoriteAnswer, ProposalAnswer } from "@/lib/portal/contracts/components";
import { apiFetch } from "@/components/http/api-client";

export type { CommittedAnswer, ComponentAnswer, ComponentList, ProposalAnswer };

const base = (name: string) => `/api/components/${encodeURIComponent(name)}`;

export function fetchList(params: string, signal?: AbortSignal): Promise<ComponentList> {
  return apiFetch(`/api/components?${params}`, { signal });
}

export function setFavorite(name: string, favorite: boolean): Promise<FavoriteAnswer> {
  return apiFetch(`${base(name)}/favorite`, { method: favorite ? "POST" : "DELETE" });
}

export function isProposal(answer: CommittedAnswer | ProposalAnswer): answer is ProposalAnswer {
  return "mergeRequest" in answer;
}

/**
 * Replaces the record, if it is still the version loaded with `etag` (refused precondition-failed otherwise):
 * committed for operators and owners, proposed as a merge request for anyone else.
 */
export function saveComponent(name: string, component: Component, etag: string): Promise<CommittedAnswer | ProposalAnswer> {
  return apiFetch(base(name), { method: "PUT", json: component, headers: { "If-Match": etag } });
}
