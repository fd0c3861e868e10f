// The contract of /api/tokens…: read by the routes, the OpenAPI document and components/tokens/api.ts. zod only.
import { z } from "zod";

export const TokenSummary = z.object({ id: z.string(), name: z.string(), prefix: z.string().describe("The token's first characters, to recognise it"), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export type TokenSummary = z.infer<typeof TokenSummary>;
/** GET /api/tokens: never the tokens themselves. */
export const TokenList = z.object({ tokens: z.array(TokenSummary) });
export const TokenRequest = z.strictObject({ name: z.string().trim().min(1, "a name is required").max(100) });
/** POST /api/tokens 201: the token, shown this once. */
export const CreatedToken = TokenSummary.extend({ token: z.string() });
export type CreatedToken = z.infer<typeof CreatedToken>;
/** DELETE /api/tokens/{id} */
export const RevokedToken = z.object({ id: z.string(), revoked: z.literal(true) });
