/**
 * Request budgets of each game environment (tenant): one for each player's game client (the JWT
 * routes) and one for the game's servers (the API-key routes), in requests per minute. A game
 * without its own value gets the service's default (OFFERS_RATE_LIMIT_*_PER_MINUTE); 0 means
 * unlimited. The values are read on every limited request, so they are cached briefly, like the
 * API keys (./games): a change reaches every instance within CACHE_TTL_MS.
 */
import { eq } from "drizzle-orm";
import type { OffersDatabase } from "./db";
import { games } from "./db/schema";
import { OffersError } from "./errors";

/** Who spends a budget: each player's game client, or the game's servers. */
export type RateLimitBudget = "client" | "server";

/** The service's defaults, per minute (0 = unlimited). */
export interface RateLimitDefaults {
  clientPerMinute: number;
  serverPerMinute: number;
}

/** A game environment's own values (null = the service's default). */
export interface StoredRateLimits {
  clientPerMinute: number | null;
  serverPerMinute: number | null;
}

/** What an environment's budgets are, with where each comes from. */
export interface EffectiveRateLimits {
  clientPerMinute: number;
  serverPerMinute: number;
  stored: StoredRateLimits;
  defaults: RateLimitDefaults;
}

/** Highest value a budget may be set to (per minute); above it, turn the limit off with 0. */
export const MAX_RATE_LIMIT_PER_MINUTE = 10_000_000;
const CACHE_TTL_MS = 5_000;

function checkValue(name: string, value: number | null | undefined): void {
  if (value === null || value === undefined) return;
  if (!Number.isInteger(value) || value < 0 || value > MAX_RATE_LIMIT_PER_MINUTE) {
    throw new OffersError("invalid-game-settings", `${name} must be an integer from 0 (unlimited) to ${MAX_RATE_LIMIT_PER_MINUTE}, or null for the default`);
  }
}

export class RateLimitSettings {
  private readonly cache = new Map<string, { at: number; value: StoredRateLimits | null }>();

  constructor(
    private readonly db: OffersDatabase,
    readonly defaults: RateLimitDefaults,
  ) {}

  /** The tenant's stored values, or null when no such game environment exists. */
  async stored(tenant: string): Promise<StoredRateLimits | null> {
    const cached = this.fresh(tenant);
    if (cached) return cached.value;
    const now = Date.now();
    const [row] = await this.db
      .select({ clientPerMinute: games.clientRateLimitPerMinute, serverPerMinute: games.serverRateLimitPerMinute })
      .from(games)
      .where(eq(games.gameId, tenant));
    const value = row ?? null;
    this.cache.set(tenant, { at: now, value });
    return value;
  }

  /** Requests per minute of one budget of the tenant (0 = unlimited). */
  async perMinute(tenant: string, budget: RateLimitBudget): Promise<number> {
    return this.budgetOf(await this.stored(tenant), budget);
  }

  /**
   * perMinute() while the tenant's values are cached, else undefined: the limiter's common case
   * takes no promise.
   */
  cachedPerMinute(tenant: string, budget: RateLimitBudget): number | undefined {
    const cached = this.fresh(tenant);
    return cached ? this.budgetOf(cached.value, budget) : undefined;
  }

  /** The service's default of one budget. */
  defaultPerMinute(budget: RateLimitBudget): number {
    return budget === "client" ? this.defaults.clientPerMinute : this.defaults.serverPerMinute;
  }

  private fresh(tenant: string): { value: StoredRateLimits | null } | undefined {
    const cached = this.cache.get(tenant);
    return cached && Date.now() - cached.at < CACHE_TTL_MS ? cached : undefined;
  }

  private budgetOf(stored: StoredRateLimits | null, budget: RateLimitBudget): number {
    return (budget === "client" ? stored?.clientPerMinute : stored?.serverPerMinute) ?? this.defaultPerMinute(budget);
  }

  /** The tenant's budgets; throws game-not-found. */
  async effective(tenant: string): Promise<EffectiveRateLimits> {
    this.cache.delete(tenant);
    const stored = await this.stored(tenant);
    if (!stored) throw new OffersError("game-not-found", tenant);
    return {
      clientPerMinute: this.budgetOf(stored, "client"),
      serverPerMinute: this.budgetOf(stored, "server"),
      stored,
      defaults: this.defaults,
    };
  }

  /** Changes the named values (null = back to the default); throws game-not-found, invalid-game-settings. */
  async set(tenant: string, changes: Partial<StoredRateLimits>): Promise<EffectiveRateLimits> {
    checkValue("clientPerMinute", changes.clientPerMinute);
    checkValue("serverPerMinute", changes.serverPerMinute);
    const values = {
      ...(changes.clientPerMinute !== undefined ? { clientRateLimitPerMinute: changes.clientPerMinute } : {}),
      ...(changes.serverPerMinute !== undefined ? { serverRateLimitPerMinute: changes.serverPerMinute } : {}),
    };
    if (Object.keys(values).length > 0) {
      const updated = await this.db.update(games).set(values).where(eq(games.gameId, tenant)).returning({ gameId: games.gameId });
      if (updated.length === 0) throw new OffersError("game-not-found", tenant);
    }
    return this.effective(tenant);
  }
}
