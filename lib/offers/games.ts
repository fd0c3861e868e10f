/**
 * Games and their API clients: creation, key rotation and revocation, API-key authentication,
 * and the decrypted keys that verify a game's JWTs (cached briefly: every JWT request needs them).
 * A game has two environments, live and test, each with clients of its own (./environments).
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Clock } from "./clock";
import { systemClock } from "./clock";
import { OffersError } from "./errors";
import { constantTimeEqual, SecretKeyMismatchError, type SecretBox } from "./secret-box";
import type { OffersDatabase } from "./db";
import { apiClients, currencies, games } from "./db/schema";
import { CREDENTIAL_PREFIX, ENVIRONMENTS, environmentOf, publicGameId, tenantOf, type Environment } from "./environments";
import { IDENTIFIER_RULE, isIdentifier } from "./contract";

/** During rotation a game holds two active keys; a third must wait for a revocation. */
export const MAX_ACTIVE_KEYS = 2;
const CACHE_TTL_MS = 5_000;

/** Longest JWT lifetime a game accepts unless set otherwise (exp − iat, or exp − now). */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;
export const MIN_MAX_TOKEN_LIFETIME_SECONDS = 60;
export const MAX_MAX_TOKEN_LIFETIME_SECONDS = 30 * 24 * 3600;
export const MAX_OFFER_SLOTS_LIMIT = 100;

export interface GameSettingsInput {
  maxOfferSlots?: number;
  maxTokenLifetimeSeconds?: number;
}

function checkSettings(input: GameSettingsInput): void {
  const { maxOfferSlots: slots, maxTokenLifetimeSeconds: lifetime } = input;
  if (slots !== undefined && (!Number.isInteger(slots) || slots < 1 || slots > MAX_OFFER_SLOTS_LIMIT)) {
    throw new OffersError("invalid-game-settings", `offer slots must be an integer from 1 to ${MAX_OFFER_SLOTS_LIMIT}`);
  }
  if (lifetime !== undefined && (!Number.isInteger(lifetime) || lifetime < MIN_MAX_TOKEN_LIFETIME_SECONDS || lifetime > MAX_MAX_TOKEN_LIFETIME_SECONDS)) {
    throw new OffersError(
      "invalid-game-settings",
      `the maximum token lifetime must be whole seconds from ${MIN_MAX_TOKEN_LIFETIME_SECONDS} to ${MAX_MAX_TOKEN_LIFETIME_SECONDS} (30 days)`,
    );
  }
}

/** One environment of a game as JWT verification needs it. */
export interface EnvironmentKeys {
  environment: Environment;
  /** The stored game_id of this environment (see ./environments). */
  tenant: string;
  /** Longest JWT lifetime accepted, in seconds. */
  maxTokenLifetimeSeconds: number;
  /** Decrypted API keys of the active clients, newest first. */
  keys: string[];
}

export interface GameKeys {
  /** The public game id. */
  gameId: string;
  name: string;
  /** Live first, then test (when it exists). */
  environments: EnvironmentKeys[];
}

export interface NewApiClient {
  /** The public game id. */
  gameId: string;
  environment: Environment;
  clientId: string;
  /** Shown once; only its encryption is stored. */
  apiKey: string;
}

/** A new game's two key sets. */
export type NewGame = NewApiClient & { test: NewApiClient };

export function generateClientId(environment: Environment = "live"): string {
  return `${CREDENTIAL_PREFIX[environment].clientId}${randomBytes(9).toString("base64url")}`;
}
export function generateApiKey(environment: Environment = "live"): string {
  return `${CREDENTIAL_PREFIX[environment].apiKey}${randomBytes(32).toString("base64url")}`;
}

export class GameDirectory {
  private readonly gameCache = new Map<string, { at: number; value: GameKeys | null }>();
  private readonly clientCache = new Map<string, { at: number; value: { gameId: string; apiKey: string } | null }>();
  private readonly clock: Clock;

  constructor(
    private readonly db: OffersDatabase,
    private readonly box: SecretBox,
    options: { clock?: Clock } = {},
  ) {
    this.clock = options.clock ?? systemClock;
  }

  /** Forget cached keys (after a rotation or revocation made by this process). */
  invalidate(): void {
    this.gameCache.clear();
    this.clientCache.clear();
  }

  /** The game (by its public id) with the active keys of each environment, or null when the game is unknown. */
  async findGameWithKeys(gameId: string): Promise<GameKeys | null> {
    const now = Date.now();
    const cached = this.gameCache.get(gameId);
    if (cached && now - cached.at < CACHE_TTL_MS) return cached.value;
    const tenants = ENVIRONMENTS.map((environment) => tenantOf(gameId, environment));
    const rows = await this.db.select().from(games).where(inArray(games.gameId, tenants));
    let value: GameKeys | null = null;
    const live = rows.find((row) => row.gameId === gameId);
    if (live) {
      const clients = await this.db
        .select()
        .from(apiClients)
        .where(and(inArray(apiClients.gameId, tenants), isNull(apiClients.revokedAt)))
        .orderBy(asc(apiClients.createdAt));
      value = {
        gameId,
        name: live.name,
        environments: ENVIRONMENTS.flatMap((environment) => {
          const row = rows.find((r) => r.gameId === tenantOf(gameId, environment));
          if (!row) return [];
          const keys = clients.filter((c) => c.gameId === row.gameId).reverse().map((c) => this.decrypt(c.encryptedKey));
          return [{ environment, tenant: row.gameId, maxTokenLifetimeSeconds: row.maxTokenLifetimeSeconds, keys }];
        }),
      };
    }
    this.gameCache.set(gameId, { at: now, value });
    return value;
  }

  /**
   * A stored key that cannot be opened means this instance runs with another OFFERS_SECRET_KEY than
   * the one that sealed it: a misconfiguration answered 503 secret-key-mismatch (and logged), never
   * a 500 and never a 401 that would send the game's developers hunting for a key that is right.
   * Failures are not cached, so fixing the key heals at once.
   */
  private decrypt(sealed: string): string {
    try {
      return this.box.decrypt(sealed);
    } catch (error) {
      if (error instanceof SecretKeyMismatchError) throw new OffersError("secret-key-mismatch", error.message);
      throw error;
    }
  }

  /** The tenant (game and environment, see ./environments) of a valid client id + API key pair, or null. Compares keys in constant time. */
  async authenticateApiKey(clientId: string | undefined, apiKey: string | undefined): Promise<string | null> {
    // A client id outside the identifier rule cannot exist: refused without a query.
    if (!clientId || !apiKey || !isIdentifier(clientId) || apiKey.length > 500) return null;
    const now = Date.now();
    let cached = this.clientCache.get(clientId);
    if (!cached || now - cached.at >= CACHE_TTL_MS) {
      const [client] = await this.db
        .select()
        .from(apiClients)
        .where(and(eq(apiClients.clientId, clientId), isNull(apiClients.revokedAt)));
      cached = { at: now, value: client ? { gameId: client.gameId, apiKey: this.decrypt(client.encryptedKey) } : null };
      this.clientCache.set(clientId, cached);
    }
    if (!cached.value) {
      constantTimeEqual(apiKey, apiKey); // same work whether or not the client exists
      return null;
    }
    return constantTimeEqual(apiKey, cached.value.apiKey) ? cached.value.gameId : null;
  }

  /**
   * Creates a game with its two environments, live and test, each with a client id and API key
   * (given, or generated with the environment's prefix). Answers both key sets, shown once.
   */
  async createGame(
    input: { gameId: string; name: string; clientId?: string; apiKey?: string; test?: { clientId?: string; apiKey?: string } } & GameSettingsInput,
  ): Promise<NewGame> {
    // Game ids follow the identifier rule, so a JWT whose iss breaks it names no game (unknown-gameId without a query).
    if (!isIdentifier(input.gameId)) throw new OffersError("invalid-game-id", IDENTIFIER_RULE);
    for (const clientId of [input.clientId, input.test?.clientId]) {
      if (clientId !== undefined && !isIdentifier(clientId)) throw new OffersError("invalid-game-settings", `client id: ${IDENTIFIER_RULE}`);
    }
    checkSettings(input);
    const credentials = {
      live: { clientId: input.clientId ?? generateClientId("live"), apiKey: input.apiKey ?? generateApiKey("live") },
      test: { clientId: input.test?.clientId ?? generateClientId("test"), apiKey: input.test?.apiKey ?? generateApiKey("test") },
    };
    if (credentials.live.clientId === credentials.test.clientId || credentials.live.apiKey === credentials.test.apiKey) {
      throw new OffersError("invalid-game-settings", "the test environment needs a client id and API key of its own");
    }
    const now = this.clock.now();
    await this.db.transaction(async (tx) => {
      for (const environment of ENVIRONMENTS) {
        const tenant = tenantOf(input.gameId, environment);
        const inserted = await tx
          .insert(games)
          .values({
            gameId: tenant,
            name: input.name,
            maxOfferSlots: input.maxOfferSlots ?? 3,
            maxTokenLifetimeSeconds: input.maxTokenLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS,
            createdAt: now,
          })
          .onConflictDoNothing()
          .returning();
        if (inserted.length === 0) throw new OffersError("game-exists", input.gameId);
        const { clientId, apiKey } = credentials[environment];
        await tx.insert(apiClients).values({ clientId, gameId: tenant, encryptedKey: this.box.encrypt(apiKey), createdAt: now });
      }
    });
    this.invalidate();
    return { gameId: input.gameId, environment: "live", ...credentials.live, test: { gameId: input.gameId, environment: "test", ...credentials.test } };
  }

  /** Adds an active client with a fresh key next to the current one of an environment (rotation step one). */
  async rotateKey(gameId: string, input: { environment?: Environment; clientId?: string; apiKey?: string } = {}): Promise<NewApiClient> {
    const environment = input.environment ?? "live";
    const tenant = tenantOf(gameId, environment);
    const clientId = input.clientId ?? generateClientId(environment);
    const apiKey = input.apiKey ?? generateApiKey(environment);
    await this.db.transaction(async (tx) => {
      const [game] = await tx.select().from(games).where(eq(games.gameId, tenant)).for("update");
      if (!game) throw new OffersError("game-not-found", gameId);
      const active = await tx
        .select({ clientId: apiClients.clientId })
        .from(apiClients)
        .where(and(eq(apiClients.gameId, tenant), isNull(apiClients.revokedAt)));
      if (active.length >= MAX_ACTIVE_KEYS) throw new OffersError("too-many-keys", `revoke one of ${active.map((a) => a.clientId).join(", ")} first`);
      await tx.insert(apiClients).values({ clientId, gameId: tenant, encryptedKey: this.box.encrypt(apiKey), createdAt: this.clock.now() });
    });
    this.invalidate();
    return { gameId, environment, clientId, apiKey };
  }

  /**
   * Changes a game's settings (offer slots, maximum token lifetime) in both environments, so that
   * what is tried in test behaves as live will; answers the game as stored.
   */
  async updateGame(gameId: string, input: GameSettingsInput): Promise<{ gameId: string; maxOfferSlots: number; maxTokenLifetimeSeconds: number }> {
    checkSettings(input);
    const set: Partial<typeof games.$inferInsert> = {};
    if (input.maxOfferSlots !== undefined) set.maxOfferSlots = input.maxOfferSlots;
    if (input.maxTokenLifetimeSeconds !== undefined) set.maxTokenLifetimeSeconds = input.maxTokenLifetimeSeconds;
    const tenants = ENVIRONMENTS.map((environment) => tenantOf(gameId, environment));
    const rows =
      Object.keys(set).length > 0
        ? await this.db.update(games).set(set).where(inArray(games.gameId, tenants)).returning()
        : await this.db.select().from(games).where(inArray(games.gameId, tenants));
    const row = rows.find((r) => r.gameId === gameId);
    if (!row) throw new OffersError("game-not-found", gameId);
    this.invalidate();
    return { gameId, maxOfferSlots: row.maxOfferSlots, maxTokenLifetimeSeconds: row.maxTokenLifetimeSeconds };
  }

  /** Revokes a client of either environment of the game. */
  async revokeKey(gameId: string, clientId: string): Promise<void> {
    const revoked = await this.db
      .update(apiClients)
      .set({ revokedAt: this.clock.now() })
      .where(and(inArray(apiClients.gameId, ENVIRONMENTS.map((environment) => tenantOf(gameId, environment))), eq(apiClients.clientId, clientId), isNull(apiClients.revokedAt)))
      .returning({ clientId: apiClients.clientId });
    if (revoked.length === 0) throw new OffersError("client-not-found", `${clientId} is not an active client of ${gameId}`);
    this.invalidate();
  }

  /** Every game by its public id, with the active client ids of each environment. */
  async listGames(): Promise<
    Array<{ gameId: string; name: string; maxOfferSlots: number; maxTokenLifetimeSeconds: number; activeClientIds: string[]; testClientIds: string[] }>
  > {
    const rows = await this.db.select().from(games).orderBy(asc(games.gameId));
    const clients = await this.db.select().from(apiClients).where(isNull(apiClients.revokedAt)).orderBy(asc(apiClients.createdAt));
    const idsOf = (tenant: string) => clients.filter((c) => c.gameId === tenant).map((c) => c.clientId);
    return rows
      .filter((g) => environmentOf(g.gameId) === "live")
      .map((g) => ({
        gameId: g.gameId,
        name: g.name,
        maxOfferSlots: g.maxOfferSlots,
        maxTokenLifetimeSeconds: g.maxTokenLifetimeSeconds,
        activeClientIds: idsOf(g.gameId),
        testClientIds: idsOf(tenantOf(g.gameId, "test")),
      }));
  }

  async upsertCurrency(gameId: string, currencyId: string, input: { name: string; image: string }) {
    const [row] = await this.db
      .insert(currencies)
      .values({ gameId, currencyId, name: input.name, image: input.image })
      .onConflictDoUpdate({ target: [currencies.gameId, currencies.currencyId], set: { name: input.name, image: input.image } })
      .returning();
    return { gameId: publicGameId(row.gameId), id: row.currencyId, name: row.name, image: row.image };
  }
}
