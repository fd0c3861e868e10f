/**
 * Live and test environments of a game. A game's test environment is a tenant of its own: a row of
 * offers_games whose id is the game's id plus TEST_SUFFIX, which every table then uses as its
 * game_id. So test data is apart from live data in every query by construction (each one already
 * filters by game_id), and the credential decides the environment: a test client belongs to the
 * test tenant, a test API key verifies test JWTs. The suffix holds a character no identifier may
 * contain, so no public game id can ever name a test tenant, and the tenant id never leaves the
 * service: what it answers names the game by its public id (`publicGameId`).
 */
import { z } from "zod";

export const ENVIRONMENTS = ["live", "test"] as const;
export const Environment = z.enum(ENVIRONMENTS);
export type Environment = z.infer<typeof Environment>;

/** Appended to a game id to name its test tenant ('#' is outside the identifier rule). */
export const TEST_SUFFIX = "#test";

/** The tenant (stored game_id) of a game's environment. */
export function tenantOf(gameId: string, environment: Environment): string {
  return environment === "test" ? `${gameId}${TEST_SUFFIX}` : gameId;
}

/** The game id callers know, for a stored game_id of either environment. */
export function publicGameId(tenant: string): string {
  return tenant.endsWith(TEST_SUFFIX) ? tenant.slice(0, -TEST_SUFFIX.length) : tenant;
}

export function environmentOf(tenant: string): Environment {
  return tenant.endsWith(TEST_SUFFIX) ? "test" : "live";
}

/** Prefixes of generated credentials: a test key or client id says so in its first characters. */
export const CREDENTIAL_PREFIX: Record<Environment, { clientId: string; apiKey: string }> = {
  live: { clientId: "cl_live_", apiKey: "ok_live_" },
  test: { clientId: "cl_test_", apiKey: "ok_test_" },
};
