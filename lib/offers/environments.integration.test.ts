/**
 * Live and test environments are apart on every endpoint: the same scenario is set up in both (the
 * same player ids, offers, claims, referrals, webhook endpoints), then every route the app serves is
 * called with one environment's credentials and must leave the other environment's stored rows as
 * they were, and answer from its own. A test claim never reaches a live webhook or the live feed; a
 * test offer never reaches a live player's event stream; and the same playerId is two players.
 */
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../db";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { MemoryEventBus } from "../events";
import { createGameClient } from "../offers-client";
import type { OffersDatabase } from "./db";
import { encodeCursor, FEED_START } from "./delivery/feed";
import { tenantOf, type Environment } from "./environments";
import { signGameJwt } from "./jwt";
import { createEventStream } from "./sse";
import { startOffersTestApp, type OffersTestContext, type TestGame } from "@/test-support/offers/test-app";

const ADMIN = "environments-admin-token-0123456789";
const ENVS: Environment[] = ["live", "test"];
const other = (env: Environment): Environment => (env === "live" ? "test" : "live");
const reward = { kind: "coins", rewardId: "gold", name: "Gold", amount: 5 };

/** Every stored row of one tenant (each offers_ table with a game_id column), as one digest. */
async function tenantDigest(db: OffersDatabase, tenant: string): Promise<string> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'game_id' and table_name like 'offers\_%' order by 1`),
  ).map((row) => row.name);
  const parts = tables.map(
    (name) => sql`select ${name} || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${sql.identifier(name)} t where t.game_id = ${tenant}`,
  );
  const [row] = rowsOf<{ digest: string }>(await db.execute(sql`select string_agg(digest, ',' order by digest) as digest from (${sql.join(parts, sql` union all `)}) d`));
  return row?.digest ?? "";
}

interface Seeded {
  instanceId: string;
  claimedInstanceId: string;
  referralId: string;
  endpointId: string;
  deliveryId: number;
  token: string;
  /** A support grant waiting for approval. */
  grantId: string;
  bulkJobId: string;
}

describe.each(testDatabaseTargets())("live and test environments on %s", (target) => {
  let t: OffersTestContext;
  const seeded = {} as Record<Environment, Seeded>;
  const creds = (env: Environment): TestGame => (env === "live" ? t.game : t.testGame);
  const jwt = (env: Environment, playerId = "p1", via?: "dashboard") =>
    signGameJwt({ gameId: "game-a", playerId, apiKey: creds(env).apiKey, now: t.clock.now(), ttlSeconds: 900, via });
  const apiHeaders = (env: Environment) => ({ "x-client-id": creds(env).clientId, "x-api-key": creds(env).apiKey });
  const adminHeaders = (env: Environment) => ({ authorization: `Bearer ${ADMIN}`, "x-offers-environment": env });
  const send = (options: InjectOptions) => t.inject({ ...options, headers: { ...(options.payload !== undefined ? { "content-type": "application/json" } : {}), ...options.headers } });

  async function seed(env: Environment): Promise<Seeded> {
    const api = apiHeaders(env);
    const ok = async (res: Promise<LightMyRequestResponse>) => {
      const r = await res;
      expect(r.statusCode, r.body).toBe(200);
      return r.json();
    };
    await ok(send({ method: "PUT", url: "/v1/offers/definitions/gift", headers: api, payload: { name: `${env} gift`, rewards: [reward], durationSeconds: 86_400, realTime: true } }));
    await ok(send({ method: "PUT", url: "/v1/offers/definitions/second", headers: api, payload: { name: `${env} second`, rewards: [reward], durationSeconds: 86_400 } }));
    await ok(send({ method: "POST", url: "/v1/player/snapshot", headers: api, payload: { playerId: "p1", username: `${env} one`, loginStreak: env === "live" ? 1 : 9 } }));
    await ok(send({ method: "POST", url: "/v1/player/snapshot", headers: api, payload: { playerId: "p2", username: `${env} two` } }));
    const claimed = await ok(send({ method: "POST", url: "/v1/player/offers/assign", headers: api, payload: { playerId: "p1", offerId: "second" } }));
    const offer = await ok(send({ method: "POST", url: "/v1/player/offers/assign", headers: api, payload: { playerId: "p1", offerId: "gift" } }));
    await ok(send({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": await jwt(env) }, payload: { viewingCampaigns: true } }));
    const endpoint = await ok(send({ method: "POST", url: "/v1/webhooks/endpoints", headers: api, payload: { url: `https://hooks.example.com/${env}`, eventTypes: ["reward.granted"] } }));
    await ok(send({ method: "POST", url: "/v1/reward/sdk/claim", headers: api, payload: { kind: "offer", instanceId: claimed.instanceId, playerId: "p1" } }));
    const referral = await ok(send({ method: "POST", url: "/v1/referrals", headers: api, payload: { referrerId: "p1", refereeId: "p2", rewards: [reward] } }));
    const token = (await ok(send({ method: "POST", url: "/v1/auth/one_time_token/generate", headers: { "x-game-jwt": await jwt(env) }, payload: {} }))).token as string;
    const endpointId = endpoint.endpointId ?? endpoint.endpoint?.endpointId;
    // A delivery of the environment's own (a test event), so the replay routes name one that exists.
    const delivery = await ok(send({ method: "POST", url: `/v1/webhooks/endpoints/${endpointId}/test`, headers: api, payload: {} }));
    const admin = { authorization: `Bearer ${ADMIN}`, "x-offers-environment": env };
    await ok(send({ method: "PUT", url: "/v1/admin/games/game-a/support-thresholds", headers: admin, payload: { rules: [{ kind: "coins", approvalAbove: 10 }] } }));
    const grant = await ok(send({ method: "POST", url: "/v1/admin/games/game-a/players/p1/support-grants", headers: admin, payload: { kind: "coins", rewardId: "gold", amount: 50, reason: `${env} refund`, actor: "sam" } }));
    const bulk = await ok(send({ method: "POST", url: "/v1/admin/games/game-a/bulk-compensations", headers: admin, payload: { kind: "coins", rewardId: "gold", amount: 5, reason: `${env} outage`, actor: "sam", players: { list: "p1\np2" } } }));
    return { instanceId: offer.instanceId, claimedInstanceId: claimed.instanceId, referralId: referral.instanceId, endpointId, deliveryId: delivery.deliveryId, token, grantId: grant.grant.grantId, bulkJobId: bulk.job.jobId };
  }

  beforeAll(async () => {
    // JWT expiry of streams by the test's clock (created below).
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000, now: () => t.clock.now().getTime() });
    t = await startOffersTestApp(target, { eventStream: stream, adminToken: ADMIN });
    for (const env of ENVS) seeded[env] = await seed(env);
  });
  afterAll(async () => t?.close());

  /** If-Match of the admin API's changes: any current state, so each change is made (in its own environment only). */
  const ANY = { "if-match": "*" };
  /** One request per route, made with the credentials of `env` (paths as Fastify prints them). */
  const routes: Record<string, (env: Environment) => Promise<InjectOptions>> = {
    "POST /v1/auth/one_time_token/generate": async (env) => ({ method: "POST", url: "/v1/auth/one_time_token/generate", headers: { "x-game-jwt": await jwt(env) }, payload: {} }),
    "POST /v1/auth/one_time_token/redeem": async (env) => ({ method: "POST", url: "/v1/auth/one_time_token/redeem", payload: { token: seeded[env].token, gameId: "game-a" } }),
    "POST /v1/client/player/campaigns": async (env) => ({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": await jwt(env) }, payload: { viewingCampaigns: true } }),
    "POST /v1/client/player/balances": async (env) => ({ method: "POST", url: "/v1/client/player/balances", headers: { "x-game-jwt": await jwt(env) }, payload: {} }),
    "POST /v1/client/player/referrals": async (env) => ({ method: "POST", url: "/v1/client/player/referrals", headers: { "x-game-jwt": await jwt(env) }, payload: {} }),
    "POST /v1/client/reward/claim": async (env) => ({ method: "POST", url: "/v1/client/reward/claim", headers: { "x-game-jwt": await jwt(env, "p1", "dashboard") }, payload: { kind: "referral", instanceId: seeded[env].referralId } }),
    "POST /v1/player/campaigns/refresh": async (env) => ({ method: "POST", url: "/v1/player/campaigns/refresh", headers: apiHeaders(env), payload: { playerId: "p1" } }),
    "POST /v1/reward/sdk/claim": async (env) => ({ method: "POST", url: "/v1/reward/sdk/claim", headers: apiHeaders(env), payload: { kind: "offer", instanceId: seeded[env].instanceId, playerId: "p1" } }),
    "PUT /v1/offers/definitions/{offerId}": async (env) => ({ method: "PUT", url: "/v1/offers/definitions/third", headers: apiHeaders(env), payload: { name: `${env} third`, rewards: [reward], durationSeconds: 60, audience: { all: [] } } }),
    "POST /v1/player/offers/assign": async (env) => ({ method: "POST", url: "/v1/player/offers/assign", headers: apiHeaders(env), payload: { playerId: "p2", offerId: "gift" } }),
    "POST /v1/player/rewards/grant": async (env) => ({ method: "POST", url: "/v1/player/rewards/grant", headers: { ...apiHeaders(env), "idempotency-key": "s1" }, payload: { playerId: "p1", kind: "coins", rewardId: "gold", amount: 5, reason: `${env} server refund` } }),
    "POST /v1/player/offers/{instanceId}/expire": async (env) => ({ method: "POST", url: `/v1/player/offers/${seeded[other(env)].instanceId}/expire`, headers: apiHeaders(env), payload: { playerId: "p1", reason: "the other environment's offer" } }),
    "POST /v1/player/offers/{instanceId}/revoke": async (env) => ({ method: "POST", url: `/v1/player/offers/${seeded[other(env)].instanceId}/revoke`, headers: apiHeaders(env), payload: { playerId: "p1", reason: "the other environment's offer" } }),
    "POST /v1/player/offers/{instanceId}/make-claimable": async (env) => ({ method: "POST", url: `/v1/player/offers/${seeded[other(env)].instanceId}/make-claimable`, headers: apiHeaders(env), payload: { playerId: "p1", reason: "the other environment's offer" } }),
    "POST /v1/player/offers/{instanceId}/extend": async (env) => ({ method: "POST", url: `/v1/player/offers/${seeded[env].instanceId}/extend`, headers: apiHeaders(env), payload: { playerId: "p1", reason: `${env} more time`, expiresAt: new Date(t.clock.now().getTime() + 3 * 86_400_000).toISOString() } }),
    "POST /v1/player/snapshot": async (env) => ({ method: "POST", url: "/v1/player/snapshot", headers: apiHeaders(env), payload: { playerId: "p3", loginStreak: 4 } }),
    "POST /v1/referrals": async (env) => ({ method: "POST", url: "/v1/referrals", headers: apiHeaders(env), payload: { referrerId: "p2", refereeId: "p4", rewards: [reward] } }),
    "PUT /v1/currencies/{currencyId}": async (env) => ({ method: "PUT", url: "/v1/currencies/gold", headers: apiHeaders(env), payload: { name: `${env} Gold`, image: "https://img.example/g.png" } }),
    "GET /v1/rewards/events": async (env) => ({ method: "GET", url: `/v1/rewards/events?after=${encodeURIComponent(encodeCursor(tenantOf("game-a", env), FEED_START))}`, headers: apiHeaders(env) }),
    "GET /v1/webhooks/endpoints": async (env) => ({ method: "GET", url: "/v1/webhooks/endpoints", headers: apiHeaders(env) }),
    "POST /v1/webhooks/endpoints": async (env) => ({ method: "POST", url: "/v1/webhooks/endpoints", headers: apiHeaders(env), payload: { url: `https://hooks.example.com/${env}/more` } }),
    "GET /v1/webhooks/endpoints/{endpointId}": async (env) => ({ method: "GET", url: `/v1/webhooks/endpoints/${seeded[env].endpointId}`, headers: apiHeaders(env) }),
    "PATCH /v1/webhooks/endpoints/{endpointId}": async (env) => ({ method: "PATCH", url: `/v1/webhooks/endpoints/${seeded[env].endpointId}`, headers: apiHeaders(env), payload: { description: env } }),
    "DELETE /v1/webhooks/endpoints/{endpointId}": async (env) => ({ method: "DELETE", url: `/v1/webhooks/endpoints/ep_none`, headers: apiHeaders(env) }),
    "POST /v1/webhooks/endpoints/{endpointId}/rotate-secret": async (env) => ({ method: "POST", url: `/v1/webhooks/endpoints/${seeded[env].endpointId}/rotate-secret`, headers: apiHeaders(env), payload: {} }),
    "POST /v1/webhooks/endpoints/{endpointId}/test": async (env) => ({ method: "POST", url: `/v1/webhooks/endpoints/${seeded[env].endpointId}/test`, headers: apiHeaders(env), payload: {} }),
    "GET /v1/webhooks/stats": async (env) => ({ method: "GET", url: "/v1/webhooks/stats", headers: apiHeaders(env) }),
    "GET /v1/webhooks/deliveries": async (env) => ({ method: "GET", url: "/v1/webhooks/deliveries", headers: apiHeaders(env) }),
    "POST /v1/webhooks/deliveries/{deliveryId}/replay": async (env) => ({ method: "POST", url: `/v1/webhooks/deliveries/${seeded[env].deliveryId}/replay`, headers: apiHeaders(env), payload: {} }),
    "POST /v1/webhooks/replay": async (env) => ({ method: "POST", url: "/v1/webhooks/replay", headers: apiHeaders(env), payload: { from: "2025-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" } }),
    "GET /v1/admin/games": async (env) => ({ method: "GET", url: "/v1/admin/games", headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/players": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/players?q=p", headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/players/{playerId}": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/players/p1", headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/players/{playerId}/timeline": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/players/p1/timeline?limit=5", headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/definitions": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/definitions", headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/definitions": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/definitions", headers: adminHeaders(env), payload: { offerId: "drafted", name: `${env} drafted`, rewards: [reward], durationSeconds: 60 } }),
    "GET /v1/admin/games/{gameId}/definitions/{offerId}": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/definitions/gift", headers: adminHeaders(env) }),
    "PUT /v1/admin/games/{gameId}/definitions/{offerId}": async (env) => ({ method: "PUT", url: "/v1/admin/games/game-a/definitions/gift", headers: { ...adminHeaders(env), ...ANY }, payload: { name: `${env} gift v2`, rewards: [reward], durationSeconds: 86_400, realTime: true } }),
    "POST /v1/admin/games/{gameId}/definitions/{offerId}/activate": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/definitions/third/activate", headers: { ...adminHeaders(env), ...ANY } }),
    "POST /v1/admin/games/{gameId}/definitions/{offerId}/pause": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/definitions/third/pause", headers: { ...adminHeaders(env), ...ANY } }),
    "POST /v1/admin/games/{gameId}/definitions/{offerId}/archive": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/definitions/drafted/archive", headers: { ...adminHeaders(env), ...ANY } }),
    "POST /v1/admin/games/{gameId}/definitions/{offerId}/restore": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/definitions/drafted/restore", headers: { ...adminHeaders(env), ...ANY } }),
    "POST /v1/admin/games/{gameId}/definitions/{offerId}/preview": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/definitions/gift/preview", headers: adminHeaders(env), payload: { playerId: "p1" } }),
    "GET /v1/admin/games/{gameId}/definitions/{offerId}/funnel": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/definitions/gift/funnel", headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/definitions/{offerId}/jobs": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/definitions/third/jobs", headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/audience/count": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/audience/count", headers: adminHeaders(env), payload: { audience: { field: "loginStreak", op: "gte", value: 5 } } }),
    "GET /v1/admin/games/{gameId}/rate-limits": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/rate-limits", headers: adminHeaders(env) }),
    "PUT /v1/admin/games/{gameId}/rate-limits": async (env) => ({ method: "PUT", url: "/v1/admin/games/game-a/rate-limits", headers: adminHeaders(env), payload: { serverPerMinute: env === "live" ? 5_000 : 6_000 } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/support-grants": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/players/p1/support-grants", headers: { ...adminHeaders(env), "idempotency-key": "k1" }, payload: { kind: "coins", rewardId: "gold", amount: 5, reason: `${env} goodwill`, actor: "sam" } }),
    "GET /v1/admin/games/{gameId}/support-grants": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/support-grants?status=pending", headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/support-grants/{grantId}/approve": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/support-grants/${seeded[env].grantId}/approve`, headers: adminHeaders(env), payload: { actor: "lee" } }),
    "POST /v1/admin/games/{gameId}/support-grants/{grantId}/reject": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/support-grants/${seeded[env === "live" ? "test" : "live"].grantId}/reject`, headers: adminHeaders(env), payload: { actor: "lee", reason: "the other environment's grant" } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/offers/{instanceId}/expire": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/players/p1/offers/${seeded[other(env)].instanceId}/expire`, headers: adminHeaders(env), payload: { actor: "sam", reason: "the other environment's offer" } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/offers/{instanceId}/revoke": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/players/p1/offers/${seeded[other(env)].instanceId}/revoke`, headers: adminHeaders(env), payload: { actor: "sam", reason: "the other environment's offer" } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/offers/{instanceId}/make-claimable": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/players/p1/offers/${seeded[env].instanceId}/make-claimable`, headers: adminHeaders(env), payload: { actor: "sam", reason: `${env} stuck offer` } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/offers/{instanceId}/extend": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/players/p1/offers/${seeded[env].instanceId}/extend`, headers: adminHeaders(env), payload: { actor: "sam", reason: `${env} more time`, expiresAt: new Date(t.clock.now().getTime() + 2 * 86_400_000).toISOString() } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/offers": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/players/p2/offers", headers: adminHeaders(env), payload: { offerId: "second", actor: "sam", reason: `${env} re-offer` } }),
    "POST /v1/admin/games/{gameId}/players/{playerId}/deliveries/replay": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/players/p1/deliveries/replay", headers: adminHeaders(env), payload: { actor: "sam", reason: `${env} lost webhook` } }),
    "GET /v1/admin/games/{gameId}/support-thresholds": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/support-thresholds", headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/bulk-compensations/preview": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/bulk-compensations/preview", headers: adminHeaders(env), payload: { kind: "coins", rewardId: "gold", amount: 5, reason: `${env} outage`, actor: "sam", players: { list: "p1\np2\np3" } } }),
    "POST /v1/admin/games/{gameId}/bulk-compensations": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/bulk-compensations", headers: { ...adminHeaders(env), "idempotency-key": "b1" }, payload: { kind: "coins", rewardId: "gold", amount: 5, reason: `${env} outage`, actor: "sam", players: { list: "p1" } } }),
    "GET /v1/admin/games/{gameId}/bulk-compensations": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/bulk-compensations?status=pending", headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/bulk-compensations/{jobId}": async (env) => ({ method: "GET", url: `/v1/admin/games/game-a/bulk-compensations/${seeded[env].bulkJobId}`, headers: adminHeaders(env) }),
    "GET /v1/admin/games/{gameId}/bulk-compensations/{jobId}/result": async (env) => ({ method: "GET", url: `/v1/admin/games/game-a/bulk-compensations/${seeded[env].bulkJobId}/result`, headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/bulk-compensations/{jobId}/approve": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/bulk-compensations/${seeded[env].bulkJobId}/approve`, headers: adminHeaders(env), payload: { actor: "lee" } }),
    "POST /v1/admin/games/{gameId}/bulk-compensations/{jobId}/reject": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/bulk-compensations/${seeded[other(env)].bulkJobId}/reject`, headers: adminHeaders(env), payload: { actor: "lee", reason: "the other environment's job" } }),
    "POST /v1/admin/games/{gameId}/bulk-compensations/{jobId}/cancel": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/bulk-compensations/${seeded[other(env)].bulkJobId}/cancel`, headers: adminHeaders(env), payload: { actor: "sam", reason: "the other environment's job" } }),
    "PUT /v1/admin/games/{gameId}/support-thresholds": async (env) => ({ method: "PUT", url: "/v1/admin/games/game-a/support-thresholds", headers: adminHeaders(env), payload: { rules: [{ kind: "loyalty_currency", approvalAbove: "always" }] } }),
    "GET /v1/admin/games/{gameId}/webhooks": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/webhooks", headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/webhooks/endpoints": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/webhooks/endpoints", headers: adminHeaders(env), payload: { url: `https://hooks.example.com/${env}/admin` } }),
    "GET /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}": async (env) => ({ method: "GET", url: `/v1/admin/games/game-a/webhooks/endpoints/${seeded[env].endpointId}`, headers: adminHeaders(env) }),
    "PATCH /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}": async (env) => ({ method: "PATCH", url: `/v1/admin/games/game-a/webhooks/endpoints/${seeded[env].endpointId}`, headers: { ...adminHeaders(env), ...ANY }, payload: { enabled: true } }),
    "DELETE /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}": async (env) => ({ method: "DELETE", url: `/v1/admin/games/game-a/webhooks/endpoints/ep_none`, headers: { ...adminHeaders(env), ...ANY } }),
    "POST /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}/rotate-secret": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/webhooks/endpoints/${seeded[env].endpointId}/rotate-secret`, headers: { ...adminHeaders(env), ...ANY }, payload: {} }),
    "POST /v1/admin/games/{gameId}/webhooks/endpoints/{endpointId}/test": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/webhooks/endpoints/${seeded[env].endpointId}/test`, headers: adminHeaders(env), payload: {} }),
    "GET /v1/admin/games/{gameId}/webhooks/deliveries": async (env) => ({ method: "GET", url: "/v1/admin/games/game-a/webhooks/deliveries", headers: adminHeaders(env) }),
    "POST /v1/admin/games/{gameId}/webhooks/deliveries/{deliveryId}/replay": async (env) => ({ method: "POST", url: `/v1/admin/games/game-a/webhooks/deliveries/${seeded[env].deliveryId}/replay`, headers: adminHeaders(env), payload: {} }),
    "POST /v1/admin/games/{gameId}/webhooks/replay": async (env) => ({ method: "POST", url: "/v1/admin/games/game-a/webhooks/replay", headers: adminHeaders(env), payload: { from: "2025-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" } }),
  };
  /** Routes that are not about a game's data (the document, the docs, probes) and the streams (tested below). */
  const elsewhere = new Set(["GET /health", "GET /ready", "GET /v1/openapi.json", "GET /v1/sse/connect", "GET /v1/admin/games/{gameId}/players/{playerId}/watch"]);

  it("has an isolation case for every route the app serves", () => {
    const lines = t.app.printRoutes({ commonPrefix: false }).split("\n").filter((line) => line.includes("("));
    const stack: string[] = [];
    const served: string[] = [];
    for (const line of lines) {
      const depth = line.search(/[^│ ├└─]/) / 4;
      const [, segment, methods] = /^[│ ├└─]*(\S*) \(([^)]*)\)/.exec(line)!;
      stack.length = depth;
      stack.push(segment);
      const path = stack.join("").replace(/:(\w+)/g, "{$1}");
      for (const method of methods.split(", ")) if (method !== "HEAD" && method !== "OPTIONS") served.push(`${method} ${path}`);
    }
    const missing = served.filter((r) => !r.startsWith("GET /v1/docs") && !(r in routes) && !elsewhere.has(r));
    expect(missing).toEqual([]);
  });

  for (const env of ENVS) {
    it(`a ${env} credential never changes the ${other(env)} environment, on every route`, async () => {
      const untouched = tenantOf("game-a", other(env));
      for (const [name, request] of Object.entries(routes)) {
        const before = await tenantDigest(t.database.db, untouched);
        const response = await send(await request(env));
        expect(response.statusCode, `${name}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
        expect(response.body, `${name} names a tenant`).not.toContain("#test");
        expect(await tenantDigest(t.database.db, untouched), `${name} with a ${env} credential changed ${other(env)} data`).toBe(before);
      }
    });
  }

  it("answers from the credential's environment: the same playerId is two players", async () => {
    for (const env of ENVS) {
      const campaigns = (await send({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": await jwt(env) }, payload: {} })).json();
      expect(campaigns.snapshot).toMatchObject({ gameId: "game-a", playerId: "p1", username: `${env} one` });
      // Two players, two ids: the test player's _id names its environment.
      expect(campaigns.snapshot._id).toBe(env === "live" ? "game-a:p1" : "game-a:test:p1");
      expect(campaigns.offers.every((o: { name: string }) => o.name.startsWith(env))).toBe(true);
      const refresh = (await send({ method: "POST", url: "/v1/player/campaigns/refresh", headers: apiHeaders(env), payload: { playerId: "p1" } })).json();
      expect(refresh.gameId).toBe("game-a");
      expect(refresh.playerSnapshot.username).toBe(`${env} one`);
      const admin = (await send({ method: "GET", url: "/v1/admin/games/game-a/players/p1", headers: adminHeaders(env) })).json();
      expect(admin.snapshot.username).toBe(`${env} one`);
      // An instance of one environment is unknown to the other.
      const foreign = await send({ method: "POST", url: "/v1/reward/sdk/claim", headers: apiHeaders(env), payload: { kind: "offer", instanceId: seeded[other(env)].claimedInstanceId, playerId: "p1" } });
      expect(foreign.json()).toEqual({ message: "offer-not-found" });
      // A support grant of one environment is unknown to the other.
      const foreignGrant = await send({ method: "POST", url: `/v1/admin/games/game-a/support-grants/${seeded[other(env)].grantId}/approve`, headers: adminHeaders(env), payload: { actor: "kim" } });
      expect(foreignGrant.json()).toMatchObject({ message: "support-grant-not-found" });
      // A one-time token redeems into its own environment: the access token reads that player.
      const token = (await send({ method: "POST", url: "/v1/auth/one_time_token/generate", headers: { "x-game-jwt": await jwt(env) }, payload: {} })).json().token;
      const redeemed = (await send({ method: "POST", url: "/v1/auth/one_time_token/redeem", payload: { token, gameId: "game-a" } })).json();
      const viaPage = (await send({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": redeemed.accessToken }, payload: {} })).json();
      expect(viaPage.snapshot.username).toBe(`${env} one`);
    }
    const games = (await send({ method: "GET", url: "/v1/admin/games", headers: adminHeaders("test") })).json().games;
    expect(games.map((g: { gameId: string }) => g.gameId)).toEqual(["game-a"]);
  });

  it("a test claim reaches the test feed and test endpoints only, marked test", async () => {
    const liveFeed = (await send({ method: "GET", url: "/v1/rewards/events?limit=500", headers: apiHeaders("live") })).json();
    const testFeed = (await send({ method: "GET", url: "/v1/rewards/events?limit=500", headers: apiHeaders("test") })).json();
    expect(liveFeed.events.length).toBeGreaterThan(0);
    expect(testFeed.events.length).toBeGreaterThan(0);
    expect(liveFeed.events.every((e: { data: { environment: string } }) => e.data.environment === "live")).toBe(true);
    expect(testFeed.events.every((e: { data: { environment: string; gameId: string } }) => e.data.environment === "test" && e.data.gameId === "game-a")).toBe(true);
    const liveIds = new Set(liveFeed.events.map((e: { id: string }) => e.id));
    expect(testFeed.events.some((e: { id: string }) => liveIds.has(e.id))).toBe(false);
    for (const env of ENVS) {
      const log = (await send({ method: "GET", url: "/v1/admin/games/game-a/webhooks/deliveries", headers: adminHeaders(env) })).json();
      const endpoints = (await send({ method: "GET", url: "/v1/webhooks/endpoints", headers: apiHeaders(env) })).json();
      const own = new Set((endpoints.endpoints ?? endpoints).map((e: { endpointId: string }) => e.endpointId));
      expect(log.deliveries.length).toBeGreaterThan(0);
      expect(log.deliveries.every((d: { endpointId: string }) => own.has(d.endpointId))).toBe(true);
      // The game server's own log is the admin API's log of its environment; the other environment's deliveries are unknown to it.
      const ownLog = (await send({ method: "GET", url: "/v1/webhooks/deliveries", headers: apiHeaders(env) })).json();
      expect(ownLog.deliveries.map((d: { deliveryId: number }) => d.deliveryId)).toEqual(log.deliveries.map((d: { deliveryId: number }) => d.deliveryId));
      const foreign = await send({ method: "POST", url: `/v1/webhooks/deliveries/${seeded[other(env)].deliveryId}/replay`, headers: apiHeaders(env), payload: {} });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual({ message: "webhook-delivery-not-found" });
    }
  });

  it("a test offer reaches the test player's stream, never the live player's of the same id", async () => {
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
    const received: Record<Environment, string[]> = { live: [], test: [] };
    await Promise.all(
      ENVS.map(async (env) => {
        const token = await jwt(env, "streamer");
        const client = createGameClient({ environment: env, baseUrl: base, getJwt: async () => token });
        await new Promise<void>((resolve) => {
          streams.push(client.connectStream({ onOffer: (offer) => received[env].push(offer.name), onStateChange: (state) => state.status === "open" && resolve() }));
        });
      }),
    );
    await send({ method: "POST", url: "/v1/player/offers/assign", headers: apiHeaders("test"), payload: { playerId: "streamer", offerId: "gift" } });
    await expect.poll(() => received.test, { timeout: 5_000 }).toEqual(["test gift v2"]);
    await send({ method: "POST", url: "/v1/player/offers/assign", headers: apiHeaders("live"), payload: { playerId: "streamer", offerId: "gift" } });
    await expect.poll(() => received.live, { timeout: 5_000 }).toEqual(["live gift v2"]);
    expect(received.test).toEqual(["test gift v2"]);
    for (const stream of streams) stream.close();
  });
  const streams: Array<{ close(): void }> = [];
});
