// Browser-side calls of the personal API tokens, on the portal's one fetch client.
import type { TokenSummary } from "@/lib/portal/tokens";
import { apiFetch } from "@/components/http/api-client";

export type { TokenSummary };

export type CreatedToken = TokenSummary & { token: string };

export const tokenKeys = { all: ["tokens"] as const };

export function fetchTokens(): Promise<{ tokens: TokenSummary[] }> {
  return apiFetch("/api/tokens");
}

export function createToken(name: string): Promise<CreatedToken> {
  return apiFetch("/api/tokens", { method: "POST", json: { name } });
}

export function revokeToken(id: string): Promise<{ id: string }> {
  return apiFetch(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
}
