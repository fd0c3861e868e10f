/** Claims of offers and referrals, by game clients and game servers. */
import { z } from "zod";
import { Reward } from "./rewards";
import { ExternalId, Identifier } from "./scalars";

export const ClaimKind = z.enum(["offer", "referral"]);
export type ClaimKind = z.infer<typeof ClaimKind>;

export const ClientClaimRequest = z.object({ kind: ClaimKind, instanceId: Identifier });
export type ClientClaimRequest = z.infer<typeof ClientClaimRequest>;
export const ClientClaimResponse = z.object({ message: z.string() });
export type ClientClaimResponse = z.infer<typeof ClientClaimResponse>;

/**
 * Idempotency-Key request header of both claim endpoints: 1–255 printable ASCII characters.
 * A retry with the same key and the same claim within 24 h answers the first answer again.
 */
export const IdempotencyKey = z
  .string()
  .regex(/^[\x20-\x7e]{1,255}$/, "1–255 printable ASCII characters")
  .describe(
    "Makes a retried claim safe: a retry with the same key and the same body within 24 h answers exactly the first answer " +
      "(200, same rewards, header Idempotent-Replayed: true); the same key with another claim answers 422 idempotency-key-reused. " +
      "Keys are scoped per game, player and endpoint. Only a successful claim binds its key.",
  );
export const ClaimHeaders = z.object({ "idempotency-key": IdempotencyKey.optional() }).loose();

export const ServerClaimRequest = ClientClaimRequest.extend({ playerId: ExternalId });
export type ServerClaimRequest = z.infer<typeof ServerClaimRequest>;
export const ServerClaimResponse = z.object({ message: z.string(), rewards: z.array(Reward) });
export type ServerClaimResponse = z.infer<typeof ServerClaimResponse>;
