/** Referrals: a referrer's reward for a referee, claimed like an offer. */
import { z } from "zod";
import { Reward } from "./rewards";
import { ExternalId, Timestamp } from "./scalars";

export const ReferralStatus = z.enum(["pending", "claimable", "claimed"]);
export type ReferralStatus = z.infer<typeof ReferralStatus>;
export const ReferralCreateRequest = z.object({
  referrerId: ExternalId,
  refereeId: ExternalId,
  rewards: z.array(Reward).min(1).max(50),
});
export type ReferralCreateRequest = z.infer<typeof ReferralCreateRequest>;
export const Referral = z.object({
  instanceId: z.string(),
  gameId: z.string(),
  referrerId: z.string(),
  refereeId: z.string(),
  rewards: z.array(Reward),
  status: ReferralStatus,
  createdAt: Timestamp,
});
export type Referral = z.infer<typeof Referral>;
export const ClientReferralsRequest = z.object({}).optional();
/** A referral as its referrer sees it: with the referred friend's username once they play. */
export const PlayerReferral = Referral.extend({ refereeUsername: z.string().optional() });
export type PlayerReferral = z.infer<typeof PlayerReferral>;
/** The referrals a player made (the player is the referrer), newest first. */
export const ClientReferralsResponse = z.object({ referrals: z.array(PlayerReferral) });
export type ClientReferralsResponse = z.infer<typeof ClientReferralsResponse>;
