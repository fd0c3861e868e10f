// Browser-side calls of the personal API tokens, on the portal's one fetch client (types: lib/portal/contracts/tokens.ts).
import type { z } from "zod";
import type { CreatedToken, RevokedToken, TokenList, TokenSummary } from "@/lib/portal/contracts/tokens";
import { apiFetch } from "@/components/http/api-client";

export type { CreatedToken, TokenSummary };

export const tokenKeys = { all: ["tokens"] as const };

export function fetchTokens(): Promise<z.infer<typeof TokenList>> {
  return apiFetch("/api/tokens");
}

export function createToken(name: string): Promise<CreatedToken> {
  return apiFetch("/api/tokens", { method: "POST", json: { name } });
}

export function revokeToken(id: string): Promise<z.infer<typeof RevokedToken>> {
  return apiFetch(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
}
