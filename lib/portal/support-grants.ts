/**
 * Support actions in the portal: compensation grants to one player and their four-eyes approval,
 * through the offers service's admin API, which keeps the state (so every portal instance agrees)
 * and refuses a decision by the requester. The actor is always the signed-in user, never a field
 * of the request. Every change is audited with its reason, before and after.
 */
import "server-only";
import { recordAudit, type AuditContext } from "./audit";
import type { PortalServices } from "./services";
import { REWARD_KIND_WORDS } from "../offers-client/reward-kinds-in-words";
import type { SupportGrant, SupportGrantStatus, SupportThresholds } from "../offers-client/schemas";

type Services = Pick<PortalServices, "offersAdmin" | "db">;

/** What support fills in to grant a compensation; the actor is added from the session. */
export interface CompensationInput {
  kind: SupportGrant["kind"];
  rewardId: string;
  amount: number;
  reason: string;
}

const describeReward = (g: Pick<SupportGrant, "amount" | "name" | "rewardId">) => `${g.amount.toLocaleString("en-US")} ${g.name} (${g.rewardId})`;

/** What the audit entry keeps of a grant. */
const stateOf = (g: SupportGrant) => ({
  playerId: g.playerId,
  kind: g.kind,
  rewardId: g.rewardId,
  amount: g.amount,
  reason: g.reason,
  status: g.status,
  requestedBy: g.requestedBy,
  decidedBy: g.decidedBy,
  decisionReason: g.decisionReason,
});

/**
 * Grants a compensation reward to a player (or asks for approval above the game's thresholds).
 * `idempotencyKey` (the form's, one per dialog) makes a repeated submit answer the first grant.
 */
export async function grantCompensation(services: Services, by: AuditContext, gameId: string, playerId: string, input: CompensationInput, idempotencyKey?: string) {
  const grant = await services.offersAdmin().requestSupportGrant(gameId, playerId, { ...input, actor: by.actor.id }, idempotencyKey);
  await recordAudit(() => services.db(), by, {
    action: "support-grant.request",
    targetType: "support-grant",
    target: `${gameId}/${playerId}/${grant.grantId}`,
    summary:
      grant.status === "pending"
        ? `asked to grant ${describeReward(grant)} to ${playerId} of ${gameId} (waits for approval): ${grant.reason}`
        : `granted ${describeReward(grant)} to ${playerId} of ${gameId}: ${grant.reason}`,
    before: null,
    after: stateOf(grant),
  }, "after-remote-change");
  return grant;
}

/** Approves or rejects a pending grant as the signed-in user; the service refuses the requester. */
export async function decideGrant(services: Services, by: AuditContext, gameId: string, grantId: string, decision: "approve" | "reject", reason?: string) {
  const admin = services.offersAdmin();
  const before = (await admin.supportGrants(gameId, { status: "pending", limit: 200 })).grants.find((g) => g.grantId === grantId);
  const grant = await admin.decideSupportGrant(gameId, grantId, decision, { actor: by.actor.id, ...(reason ? { reason } : {}) });
  await recordAudit(() => services.db(), by, {
    action: decision === "approve" ? "support-grant.approve" : "support-grant.reject",
    targetType: "support-grant",
    target: `${gameId}/${grant.playerId}/${grantId}`,
    summary: `${decision === "approve" ? "approved" : "rejected"} ${grant.requestedBy}'s grant of ${describeReward(grant)} to ${grant.playerId} of ${gameId}${reason ? `: ${reason}` : ""}`,
    before: before ? stateOf(before) : null,
    after: stateOf(grant),
  }, "after-remote-change");
  return grant;
}

export function supportGrants(services: Services, gameId: string, query: { status?: SupportGrantStatus; playerId?: string; limit?: number }, signal?: AbortSignal) {
  return services.offersAdmin().supportGrants(gameId, query, signal);
}

/** The thresholds in words, for the audit log: "coins above 1,000; loyalty currency (gems) always". */
export function thresholdsInWords(thresholds: SupportThresholds): string {
  if (thresholds.rules.length === 0) return "none: every grant is immediate";
  return thresholds.rules
    .map((r) => `${REWARD_KIND_WORDS[r.kind]}${r.rewardId ? ` (${r.rewardId})` : ""} ${r.approvalAbove === "always" ? "always" : `above ${r.approvalAbove.toLocaleString("en-US")}`}`)
    .join("; ");
}

export function supportThresholds(services: Services, gameId: string, signal?: AbortSignal) {
  return services.offersAdmin().supportThresholds(gameId, signal);
}

/** Sets the game environment's four-eyes thresholds (a lead's policy); audited with the rules before and after. */
export async function setSupportThresholds(services: Services, by: AuditContext, gameId: string, thresholds: SupportThresholds) {
  const admin = services.offersAdmin();
  const before = await admin.supportThresholds(gameId);
  const after = await admin.setSupportThresholds(gameId, thresholds);
  await recordAudit(() => services.db(), by, {
    action: "support-thresholds.update",
    targetType: "support-thresholds",
    target: gameId,
    summary: `set the support approval thresholds of ${gameId}: ${thresholdsInWords(after)} (were: ${thresholdsInWords(before)})`,
    before,
    after,
  }, "after-remote-change");
  return after;
}
