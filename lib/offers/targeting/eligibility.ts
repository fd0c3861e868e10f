/**
 * Whether a targeted definition surfaces for a player now — as pure functions of the definition,
 * the player's snapshot and offer history, the time, and the game-wide reservations of a limited
 * stock. The engine runs `isEligible` under the player's lock; the preview shows every check with
 * `surfacingChecks`, so a person sees which condition failed and why.
 */
import type { AudienceRule, OfferStatus } from "../contract";
import { audienceMisses, matchesAudience, type AudienceSnapshot } from "./audience";
import { inRollout } from "./rollout";

export interface TargetedDefinition {
  gameId: string;
  offerId: string;
  status: "draft" | "active" | "paused" | "archived";
  audience: AudienceRule | null;
  startsAt: Date | null;
  endsAt: Date | null;
  maxActivationsPerPlayer: number;
  cooldownSeconds: number;
  maxClaimsTotal: number | null;
  rollout: number;
}

/** An earlier instance of any offer for the player (only those of the definition count). */
export interface PastInstance {
  offerId: string;
  status: OfferStatus;
  claimedAt: Date | null;
  expiresAt: Date;
}

export interface EligibilityInput {
  definition: TargetedDefinition;
  playerId: string;
  snapshot: AudienceSnapshot;
  history: readonly PastInstance[];
  now: Date;
  /** Instances of the definition across the game that are not expired (needed only with maxClaimsTotal). */
  reserved?: number;
}

export const SURFACING_CHECKS = ["status", "schedule", "audience", "rollout", "open-instance", "activations", "cooldown", "stock"] as const;
export type SurfacingCheckName = (typeof SURFACING_CHECKS)[number];

export interface SurfacingCheck {
  check: SurfacingCheckName;
  passed: boolean;
  /** In words for people: what was checked and what the player has. */
  detail: string;
}

const FINAL: ReadonlySet<OfferStatus> = new Set(["claimed", "expired"]);

/** When a final instance ended: claimed at its claim, expired at its deadline (not when a read noticed it). */
const endedAt = (i: PastInstance) => (i.status === "claimed" && i.claimedAt ? i.claimedAt : i.expiresAt);

function check(input: EligibilityInput, name: SurfacingCheckName): SurfacingCheck {
  const { definition: d, now } = input;
  const mine = () => input.history.filter((i) => i.offerId === d.offerId);
  switch (name) {
    case "status":
      return d.status === "active"
        ? { check: name, passed: true, detail: "the definition is active" }
        : { check: name, passed: false, detail: `the definition is ${d.status}; only active definitions surface by themselves` };
    case "schedule":
      if (d.startsAt && now < d.startsAt) return { check: name, passed: false, detail: `the window opens at ${d.startsAt.toISOString()}` };
      if (d.endsAt && now >= d.endsAt) return { check: name, passed: false, detail: `the window closed at ${d.endsAt.toISOString()}` };
      return { check: name, passed: true, detail: d.startsAt || d.endsAt ? "inside the window" : "no schedule" };
    case "audience": {
      if (!d.audience) return { check: name, passed: false, detail: "no audience: assigned only explicitly" };
      const misses = audienceMisses(d.audience, input.snapshot);
      return misses.length ? { check: name, passed: false, detail: misses.join("; ") } : { check: name, passed: true, detail: "the snapshot matches the audience" };
    }
    case "rollout":
      return inRollout(d.rollout, d.gameId, d.offerId, input.playerId)
        ? { check: name, passed: true, detail: `inside the ${d.rollout}% rollout` }
        : { check: name, passed: false, detail: `outside the ${d.rollout}% rollout (stable for this player)` };
    case "open-instance": {
      const open = mine().find((i) => !FINAL.has(i.status));
      return open ? { check: name, passed: false, detail: `the player already has it (${open.status})` } : { check: name, passed: true, detail: "the player has no open instance of it" };
    }
    case "activations": {
      const n = mine().length;
      return n >= d.maxActivationsPerPlayer
        ? { check: name, passed: false, detail: `given ${n} of at most ${d.maxActivationsPerPlayer} time${d.maxActivationsPerPlayer === 1 ? "" : "s"}` }
        : { check: name, passed: true, detail: `given ${n} of at most ${d.maxActivationsPerPlayer}` };
    }
    case "cooldown": {
      if (d.cooldownSeconds <= 0) return { check: name, passed: true, detail: "no cooldown" };
      const ended = mine().filter((i) => FINAL.has(i.status)).map(endedAt);
      const last = ended.length ? new Date(Math.max(...ended.map((t) => t.getTime()))) : null;
      const until = last ? new Date(last.getTime() + d.cooldownSeconds * 1000) : null;
      return until && now < until
        ? { check: name, passed: false, detail: `cooling down until ${until.toISOString()}` }
        : { check: name, passed: true, detail: last ? "the cooldown has passed" : "no earlier activation" };
    }
    case "stock": {
      if (d.maxClaimsTotal === null) return { check: name, passed: true, detail: "no game-wide limit" };
      const reserved = input.reserved ?? 0;
      return reserved >= d.maxClaimsTotal
        ? { check: name, passed: false, detail: `all ${d.maxClaimsTotal} are given out or claimed` }
        : { check: name, passed: true, detail: `${reserved} of ${d.maxClaimsTotal} given out or claimed` };
    }
  }
}

/** Every check in order, each with its outcome (the preview). */
export function surfacingChecks(input: EligibilityInput): SurfacingCheck[] {
  return SURFACING_CHECKS.map((name) => check(input, name));
}

/**
 * The engine's test, cheapest first and short-circuiting. `reserved` may be left out when the
 * stock is checked separately (under the definition's lock).
 */
export function isEligible(input: EligibilityInput, options: { skipStock?: boolean } = {}): boolean {
  const d = input.definition;
  if (d.status !== "active" || !d.audience) return false;
  if ((d.startsAt && input.now < d.startsAt) || (d.endsAt && input.now >= d.endsAt)) return false;
  if (!matchesAudience(d.audience, input.snapshot)) return false;
  if (!inRollout(d.rollout, d.gameId, d.offerId, input.playerId)) return false;
  for (const name of ["open-instance", "activations", "cooldown"] as const) if (!check(input, name).passed) return false;
  return options.skipStock || check(input, "stock").passed;
}
