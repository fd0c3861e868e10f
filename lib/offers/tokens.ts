/**
 * One-time dashboard tokens: 32 random bytes (base64url), valid 5 minutes, single use.
 * Only the SHA-256 of a token is stored. Redeeming is one conditional UPDATE, so of N concurrent
 * redeems exactly one succeeds; it answers a 15-minute access JWT of the player's game.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import { callerDeadline, CallerDeadlinePassed } from "../db";
import type { Clock } from "./clock";
import { OffersError } from "./errors";
import type { OffersDatabase } from "./db";
import { oneTimeTokens } from "./db/schema";
import { ENVIRONMENTS, tenantOf } from "./environments";
import type { GameDirectory } from "./games";
import { ACCESS_TOKEN_TTL_SECONDS, signGameJwt } from "./jwt";
import { sha256Hex } from "./secret-box";
import type { OneTimeTokenRedeemResponse } from "./contract";

export const ONE_TIME_TOKEN_TTL_MS = 5 * 60 * 1000;

export class OneTimeTokens {
  constructor(
    private readonly db: OffersDatabase,
    private readonly games: GameDirectory,
    private readonly clock: Clock,
  ) {}

  async generate(gameId: string, playerId: string): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    const now = this.clock.now();
    await this.db.insert(oneTimeTokens).values({
      tokenHash: sha256Hex(token),
      gameId,
      playerId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ONE_TIME_TOKEN_TTL_MS),
    });
    return token;
  }

  /**
   * Redeems a token of the game (its public id) in either environment: the token was stored with the
   * environment's tenant, and the access JWT is signed with that environment's key, so the rewards
   * page stays in the environment the token was made in.
   */
  async redeem(token: string, gameId: string): Promise<OneTimeTokenRedeemResponse> {
    const now = this.clock.now();
    const hash = sha256Hex(token);
    const ofGame = inArray(oneTimeTokens.gameId, ENVIRONMENTS.map((environment) => tenantOf(gameId, environment)));
    // Used only while this caller still waits: a PostgreSQL that froze with the update in its socket
    // must not spend the token after a 503, or the player's retry would find it used.
    const deadline = callerDeadline(this.db);
    const [used] = await this.db
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.tokenHash, hash), ofGame, isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now), sql`clock_timestamp() < ${deadline}`))
      .returning({ playerId: oneTimeTokens.playerId, tenant: oneTimeTokens.gameId });
    if (!used) {
      const [row] = await this.db
        .select({ usedAt: oneTimeTokens.usedAt, expiresAt: oneTimeTokens.expiresAt, late: sql<boolean>`clock_timestamp() >= ${deadline}` })
        .from(oneTimeTokens)
        .where(and(eq(oneTimeTokens.tokenHash, hash), ofGame));
      if (!row) throw new OffersError("token-invalid");
      if (row.usedAt) throw new OffersError("token-used");
      if (row.expiresAt.getTime() <= now.getTime()) throw new OffersError("token-expired");
      if (row.late) throw new CallerDeadlinePassed("one-time token redeem");
      throw new OffersError("token-expired");
    }
    const environment = (await this.games.findGameWithKeys(gameId))?.environments.find((e) => e.tenant === used.tenant);
    if (!environment || environment.keys.length === 0) throw new OffersError("token-invalid");
    // 15 minutes, or less when the game accepts only shorter tokens.
    const ttlSeconds = Math.min(ACCESS_TOKEN_TTL_SECONDS, environment.maxTokenLifetimeSeconds);
    // Marked, so its claims are recorded as made on the rewards page.
    const accessToken = await signGameJwt({ gameId, playerId: used.playerId, apiKey: environment.keys[0], now, ttlSeconds, via: "dashboard" });
    return { playerId: used.playerId, gameId, accessToken };
  }

  /** Deletes tokens that expired more than a day ago (kept a while so "already used" can be told apart). */
  async purge(): Promise<void> {
    const cutoff = new Date(this.clock.now().getTime() - 24 * 3600 * 1000);
    await this.db.delete(oneTimeTokens).where(lt(oneTimeTokens.expiresAt, cutoff));
  }
}
