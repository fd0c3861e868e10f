/**
 * Read-only questions of live ops: would a definition surface for a player now, and if not which
 * condition fails (the preview); and how many players an audience matches now (its size).
 */
import { and, count, eq, sql } from "drizzle-orm";
import { publicGameId } from "../environments";
import { OffersError } from "../errors";
import type { OffersExecutor } from "../db";
import { offerInstances, players } from "../db/schema";
import type { AudienceRule } from "../contract";
import { audienceSql, rolloutSql } from "../targeting/audience-sql";
import { surfacingChecks, type SurfacingCheck, type SurfacingCheckName } from "../targeting/eligibility";
import { pickVariant } from "../targeting/rollout";
import { definitionRow } from "./definitions";
import { assignmentStatus, isOverdue, OPEN } from "./slots";
import { reservedCount } from "./surfacing";
import type { EngineCore } from "./types";

export interface SurfacingPreview {
  gameId: string;
  offerId: string;
  playerId: string;
  definitionVersion: number;
  wouldSurface: boolean;
  /** Where it would go: a free slot (surfaced) or the queue (inQueue); null when it would not be given. */
  as: "surfaced" | "inQueue" | null;
  /** The first check that fails, or null. */
  failed: SurfacingCheckName | null;
  checks: SurfacingCheck[];
  /** The reward variant this player gets (definitions with variants). */
  variantId: string | null;
}

/** Whether `offerId` would surface for `playerId` now, with every check; player-not-found when the game has no such player. */
export async function previewSurfacing(core: EngineCore, gameId: string, offerId: string, playerId: string): Promise<SurfacingPreview> {
  const db = core.db;
  const definition = await definitionRow(db, gameId, offerId);
  if (!definition) throw new OffersError("offer-not-found", offerId);
  const [player] = await db.select().from(players).where(and(eq(players.gameId, gameId), eq(players.playerId, playerId)));
  if (!player) throw new OffersError("player-not-found", playerId);
  const now = core.clock.now();
  const history = await db.select().from(offerInstances).where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)));
  const reserved = definition.maxClaimsTotal === null ? 0 : await reservedCount(db, gameId, offerId, now);
  const checks = surfacingChecks({ definition, playerId, snapshot: player, history, now, reserved });
  const failed = checks.find((c) => !c.passed)?.check ?? null;
  // Open offers as the next settle would leave them: overdue ones expire first.
  const open = history.filter((row) => OPEN.includes(row.status) && !isOverdue(row, now));
  const { maxOfferSlots } = await core.gameSettings(gameId);
  return {
    gameId: publicGameId(gameId),
    offerId,
    playerId,
    definitionVersion: definition.version,
    wouldSurface: failed === null,
    as: failed === null ? assignmentStatus(open, maxOfferSlots) : null,
    failed,
    checks,
    variantId: definition.variants?.length ? pickVariant(definition.variants, gameId, offerId, playerId).variantId : null,
  };
}

export interface AudienceSize {
  /** Players of the game whose snapshot matches the audience (and, with a rollout, are inside it). */
  matching: number;
  /** Players of the game with a snapshot. */
  players: number;
}

/** How many of the game's players match an audience now (counted by the database). */
export async function audienceSize(db: OffersExecutor, gameId: string, audience: AudienceRule, rollout?: { percent: number; offerId: string }): Promise<AudienceSize> {
  const inRollout = rollout ? rolloutSql(rollout.percent, gameId, rollout.offerId) : sql`true`;
  const [row] = await db
    .select({
      matching: sql<number>`count(*) filter (where (${audienceSql(audience)}) and (${inRollout}))`,
      players: count(),
    })
    .from(players)
    .where(eq(players.gameId, gameId));
  return { matching: Number(row?.matching ?? 0), players: Number(row?.players ?? 0) };
}
