/** The admin API of live ops (the portal's offers console): definitions, surfacing jobs, previews, audience counts, funnels. */
import { z } from "zod";
import { AudienceRule } from "./audience-rule";
import { OfferDefinition, OfferDefinitionInput } from "./definitions";
import { ExternalId, Timestamp } from "./scalars";

/** A definition as written through the admin API: the same fields, offerId required when creating. */
export const AdminDefinitionCreate = OfferDefinitionInput.safeExtend({ offerId: ExternalId });

export const SurfacingJob = z.object({
  id: z.number().int(),
  definitionVersion: z.number().int(),
  reason: z.enum(["activated", "updated", "window-opened"]),
  status: z.enum(["queued", "running", "done", "failed", "superseded"]),
  playersTotal: z.number().int().nullable(),
  playersEvaluated: z.number().int(),
  activations: z.number().int(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
  updatedAt: Timestamp,
});
export type SurfacingJob = z.infer<typeof SurfacingJob>;

export const FunnelCounts = z.object({
  assigned: z.number().int(),
  surfaced: z.number().int(),
  viewed: z.number().int(),
  claimable: z.number().int(),
  claimed: z.number().int(),
  expired: z.number().int(),
  /** claimed ÷ surfaced; null before anything surfaced. */
  conversion: z.number().nullable(),
});
export type FunnelCounts = z.infer<typeof FunnelCounts>;

export const AdminDefinitionSummary = OfferDefinition.extend({
  /** The audience in one line ("loginStreak ≥ 3 and …"). */
  audienceSummary: z.string(),
  funnel: FunnelCounts,
  /** Claims per UTC day, oldest first, over the list's window. */
  claimsPerDay: z.array(z.number().int()),
});
export type AdminDefinitionSummary = z.infer<typeof AdminDefinitionSummary>;

export const AdminDefinitionList = z.object({
  definitions: z.array(AdminDefinitionSummary),
  /** First UTC day of claimsPerDay. */
  since: z.string(),
  days: z.number().int(),
});
export type AdminDefinitionList = z.infer<typeof AdminDefinitionList>;

export const AdminDefinitionDetail = z.object({
  definition: OfferDefinition,
  audienceSummary: z.string(),
  /** Surfacing jobs of this definition, newest first. */
  jobs: z.array(SurfacingJob),
});
export type AdminDefinitionDetail = z.infer<typeof AdminDefinitionDetail>;

/** The answer of a create, edit or status change: the definition before and after, and the job it queued. */
export const AdminDefinitionChange = z.object({
  definition: OfferDefinition,
  before: OfferDefinition.nullable(),
  changed: z.boolean(),
  job: SurfacingJob.nullable(),
});
export type AdminDefinitionChange = z.infer<typeof AdminDefinitionChange>;

export const DefinitionAction = z.enum(["activate", "pause", "archive", "restore"]);
export type DefinitionAction = z.infer<typeof DefinitionAction>;

export const SurfacingPreviewRequest = z.strictObject({ playerId: ExternalId });
export const SurfacingPreview = z.object({
  gameId: z.string(),
  offerId: z.string(),
  playerId: z.string(),
  definitionVersion: z.number().int(),
  wouldSurface: z.boolean(),
  as: z.enum(["surfaced", "inQueue"]).nullable(),
  failed: z.enum(["status", "schedule", "audience", "rollout", "open-instance", "activations", "cooldown", "stock"]).nullable(),
  checks: z.array(z.object({ check: z.string(), passed: z.boolean(), detail: z.string() })),
  variantId: z.string().nullable(),
});
export type SurfacingPreview = z.infer<typeof SurfacingPreview>;

export const AudienceCountRequest = z.strictObject({
  audience: AudienceRule,
  /** With a rollout, only players inside it count (the draw depends on the offerId). */
  rollout: z.number().finite().min(0).max(100).optional(),
  offerId: ExternalId.optional(),
})
  // Which players a rollout takes is a hash of game, offer and player: without the offer there is no draw to apply.
  .refine((r) => r.rollout === undefined || r.offerId !== undefined, { path: ["offerId"], error: "required with rollout: which players a rollout takes depends on the offer" });
export type AudienceCountRequest = z.infer<typeof AudienceCountRequest>;
export const AudienceCount = z.object({ matching: z.number().int(), players: z.number().int() });
export type AudienceCount = z.infer<typeof AudienceCount>;

export const DefinitionFunnel = z.object({
  days: z.number().int(),
  total: FunnelCounts,
  byDay: z.array(FunnelCounts.extend({ day: z.string() })),
  variants: z.array(FunnelCounts.extend({ variantId: z.string() })),
  comparisons: z.array(
    z.object({
      variantId: z.string(),
      baselineId: z.string(),
      difference: z.number().nullable(),
      low: z.number().nullable(),
      high: z.number().nullable(),
      significant: z.boolean(),
    }),
  ),
});
export type DefinitionFunnel = z.infer<typeof DefinitionFunnel>;
