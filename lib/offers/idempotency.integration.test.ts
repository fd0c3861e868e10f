/**
 * Idempotency-Key on both claim endpoints: a claim whose answer was lost can be retried and learns
 * that it succeeded (the same 200, the same rewards), while the interface's rule stays (a claim of
 * an offer that is not claimable, without a key or with a new one, is 409 offer-not-claimable).
 */
import { and, eq } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { idempotencyKeys, rewardLedger } from "./db/schema";
import { startOffersService } from "./service";
import { offersStorage, startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";

const coins = (amount: number) => ({ kind: "coins" as const, rewardId: "coins", name: "Coins", amount });

describe.each(contractDatabaseTargets())("Idempotency-Key on claims, on %s", (target) => {
  let t: OffersTestContext;
  let api: Record<string, string>;
  let offerSeq = 0;

  /** A claimable offer of the player (an offer without conditions becomes claimable when viewed). */
  const claimableOffer = async (playerId: string, amount = 10): Promise<string> => {
    const offerId = `gift-${++offerSeq}`;
    expect((await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: api, payload: { name: offerId, rewards: [coins(amount)], durationSeconds: 86_400 } })).statusCode).toBe(200);
    const assigned = await t.post("/v1/player/offers/assign", { playerId, offerId }, api);
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    const viewed = await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": await t.jwt(playerId) });
    expect(viewed.body.offers.find((o: { instanceId: string }) => o.instanceId === assigned.body.instanceId).status).toBe("claimable");
    return assigned.body.instanceId;
  };
  const sdkClaim = (playerId: string, instanceId: string, key?: string, kind = "offer") =>
    t.inject({ method: "POST", url: "/v1/reward/sdk/claim", headers: { ...api, ...(key === undefined ? {} : { "idempotency-key": key }) }, payload: { kind, instanceId, playerId } });
  const clientClaim = async (playerId: string, instanceId: string, key?: string, kind = "offer") =>
    t.inject({ method: "POST", url: "/v1/client/reward/claim", headers: { "x-game-jwt": await t.jwt(playerId), ...(key === undefined ? {} : { "idempotency-key": key }) }, payload: { kind, instanceId } });
  const ledgerRows = async (instanceId: string) => (await t.database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, instanceId))).length;

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    api = t.apiHeaders();
  });
  afterAll(async () => t?.close());

  it("answers a retry with the same key and body exactly as the first time, and grants once", async () => {
    const instanceId = await claimableOffer("p-retry", 25);
    const first = await sdkClaim("p-retry", instanceId, "claim-p-retry-1");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: "Rewards claimed", rewards: [coins(25)] });
    expect(first.headers["idempotent-replayed"]).toBeUndefined();
    for (let i = 0; i < 3; i++) {
      const retry = await sdkClaim("p-retry", instanceId, "claim-p-retry-1");
      expect(retry.statusCode).toBe(200);
      expect(retry.body).toBe(first.body);
      expect(retry.headers["idempotent-replayed"]).toBe("true");
    }
    expect(await ledgerRows(instanceId)).toBe(1);
    // Without a key, or with another key, the interface's rule: the offer is no longer claimable.
    expect((await sdkClaim("p-retry", instanceId)).statusCode).toBe(409);
    const fresh = await sdkClaim("p-retry", instanceId, "another-key");
    expect({ status: fresh.statusCode, body: fresh.json() }).toEqual({ status: 409, body: { message: "offer-not-claimable" } });
  });

  it("does the same on the client endpoint (JWT)", async () => {
    const instanceId = await claimableOffer("p-client");
    const first = await clientClaim("p-client", instanceId, "client-key-1");
    expect(first.statusCode).toBe(200);
    const retry = await clientClaim("p-client", instanceId, "client-key-1");
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect(retry.json()).toEqual({ message: "Rewards claimed" });
    expect(await ledgerRows(instanceId)).toBe(1);
  });

  it("answers 422 idempotency-key-reused for the same key with another claim, and changes nothing", async () => {
    const a = await claimableOffer("p-reuse");
    const b = await claimableOffer("p-reuse");
    expect((await sdkClaim("p-reuse", a, "reused-key")).statusCode).toBe(200);
    const before = await storedStateDigest(t.database.db);
    for (const [instanceId, kind] of [[b, "offer"], ["no-such-instance", "offer"], [a, "referral"]] as const) {
      const other = await sdkClaim("p-reuse", instanceId, "reused-key", kind);
      expect({ status: other.statusCode, body: other.json() }, `${kind} ${instanceId}`).toEqual({ status: 422, body: { message: "idempotency-key-reused" } });
    }
    expect(await storedStateDigest(t.database.db)).toBe(before); // b stays claimable
    expect((await sdkClaim("p-reuse", b, "second-key")).statusCode).toBe(200);
  });

  it("scopes keys per game, per player and per endpoint", async () => {
    const mine = await claimableOffer("p-scope-1");
    const theirs = await claimableOffer("p-scope-2");
    const viaClient = await claimableOffer("p-scope-1");
    expect((await sdkClaim("p-scope-1", mine, "shared-key")).statusCode).toBe(200);
    // another player may use the same key for their own claim
    expect((await sdkClaim("p-scope-2", theirs, "shared-key")).statusCode).toBe(200);
    // the same player on the other endpoint too
    expect((await clientClaim("p-scope-1", viaClient, "shared-key")).statusCode).toBe(200);
    // another game
    const other = await t.app.offers.games.createGame({ gameId: "game-b", name: "Game B", clientId: "client-b", apiKey: "api-key-of-game-b-0123456789" });
    const otherApi = t.apiHeaders(other);
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/g", headers: otherApi, payload: { name: "g", rewards: [coins(1)], durationSeconds: 600 } })).statusCode).toBe(200);
    const assigned = await t.post("/v1/player/offers/assign", { playerId: "p-scope-1", offerId: "g" }, otherApi);
    await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": await t.jwt("p-scope-1", { gameId: "game-b", apiKey: other.apiKey }) });
    const res = await t.inject({ method: "POST", url: "/v1/reward/sdk/claim", headers: { ...otherApi, "idempotency-key": "shared-key" }, payload: { kind: "offer", instanceId: assigned.body.instanceId, playerId: "p-scope-1" } });
    expect(res.statusCode, res.body).toBe(200);
    const stored = await t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "shared-key"));
    expect(stored.map((k) => `${k.gameId}/${k.playerId}/${k.endpoint}`).sort()).toEqual(["game-a/p-scope-1/client", "game-a/p-scope-1/sdk", "game-a/p-scope-2/sdk", "game-b/p-scope-1/sdk"]);
  });

  it("gives concurrent claims with one key one grant, and every one of them the same 200", async () => {
    const instanceId = await claimableOffer("p-race", 7);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sdkClaim("p-race", instanceId, "race-key")));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set([JSON.stringify({ message: "Rewards claimed", rewards: [coins(7)] })]));
    expect(answers.filter((a) => a.headers["idempotent-replayed"] !== "true")).toHaveLength(1);
    expect(await ledgerRows(instanceId)).toBe(1);
  });

  it("keeps a refused claim's key unused: it changed nothing, so a later retry runs the claim", async () => {
    const result = await sdkClaim("p-later", "not-yet", "early-key");
    expect(result.statusCode).toBe(404);
    const instanceId = await claimableOffer("p-later");
    // the key was not bound to the failed request
    expect((await sdkClaim("p-later", instanceId, "early-key")).statusCode).toBe(200);
  });

  it("claims referrals with a key too", async () => {
    expect((await t.post("/v1/player/snapshot", { playerId: "friend" }, api)).status).toBe(200);
    const referral = await t.post("/v1/referrals", { referrerId: "p-ref", refereeId: "friend", rewards: [coins(3)] }, api);
    expect(referral.body.status).toBe("claimable");
    const first = await sdkClaim("p-ref", referral.body.instanceId, "ref-key", "referral");
    expect(first.json()).toEqual({ message: "Rewards claimed", rewards: [coins(3)] });
    const retry = await sdkClaim("p-ref", referral.body.instanceId, "ref-key", "referral");
    expect(retry.statusCode).toBe(200);
    expect(retry.body).toBe(first.body);
    expect((await sdkClaim("p-ref", referral.body.instanceId, "ref-key", "offer")).statusCode).toBe(422);
    expect(await ledgerRows(referral.body.instanceId)).toBe(1);
  });

  it("forgets keys after 24 hours, and the sweep purges them", async () => {
    const instanceId = await claimableOffer("p-old");
    expect((await sdkClaim("p-old", instanceId, "old-key")).statusCode).toBe(200);
    t.clock.advance(24 * 3600 * 1000 - 1000);
    expect((await sdkClaim("p-old", instanceId, "old-key")).statusCode).toBe(200);
    t.clock.advance(2000);
    // past 24 h the key means nothing any more: the claim itself answers
    expect((await sdkClaim("p-old", instanceId, "old-key")).statusCode).toBe(409);
    // an expired key that the sweep has not purged yet is free for a new claim
    const next = await claimableOffer("p-old");
    expect((await sdkClaim("p-old", next, "old-key")).statusCode).toBe(200);
    await t.app.offers.engine.purgeIdempotencyKeys();
    const left = await t.database.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.playerId, "p-old")));
    expect(left.map((k) => k.key)).toEqual(["old-key"]); // the new binding only
    expect(left[0]!.fingerprint).not.toBe("");
  });

  it("validates the key: 1–255 printable ASCII characters, else 400 invalid-request", async () => {
    const instanceId = await claimableOffer("p-format");
    for (const key of ["", "k".repeat(256), "caf\u00e9", "tab\tkey"]) {
      const res = await sdkClaim("p-format", instanceId, key);
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json().message).toBe("invalid-request");
      expect(res.json().issues[0].path).toEqual(["idempotency-key"]);
    }
    expect(await ledgerRows(instanceId)).toBe(0);
    for (const key of ["k".repeat(255), "a key with spaces and !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"]) {
      expect((await sdkClaim("p-format", instanceId, key)).statusCode, key).not.toBe(400);
    }
  });

  it("shows the header in the OpenAPI document of both claim endpoints", async () => {
    const doc = (await t.inject({ method: "GET", url: "/v1/openapi.json" })).json();
    for (const path of ["/v1/client/reward/claim", "/v1/reward/sdk/claim"]) {
      const header = doc.paths[path].post.parameters.find((p: { in: string; name: string }) => p.in === "header" && p.name === "idempotency-key");
      expect(header, path).toBeDefined();
      expect(header.required).toBe(false);
      expect(header.schema.pattern ?? JSON.stringify(header.schema)).toContain("x20-");
      expect(header.description ?? header.schema.description).toContain("24 h");
    }
  });
});

describe.each(contractDatabaseTargets())("the running service's sweep, on %s", (target) => {
  it("purges Idempotency-Keys older than 24 h", { timeout: 120_000 }, async () => {
    const s = offersStorage(target);
    const service = await startOffersService({
      env: await s.env({ OFFERS_SECRET_KEY: "d".repeat(64), OFFERS_SWEEP_INTERVAL_MS: "50" }),
      logger: pino({ level: "silent" }),
    });
    try {
      const db = service.database.db;
      const row = (key: string, expiresAt: Date) => ({ gameId: "g", playerId: "p", endpoint: "sdk" as const, key, fingerprint: "f", rewards: [], createdAt: new Date(), expiresAt });
      await db.insert(idempotencyKeys).values([row("expired", new Date(Date.now() - 1000)), row("fresh", new Date(Date.now() + 3600_000))]);
      const deadline = Date.now() + 30_000;
      let keys: string[] = [];
      while (Date.now() < deadline) {
        keys = (await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).map((k) => k.key);
        if (!keys.includes("expired")) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(keys).toEqual(["fresh"]);
    } finally {
      await service.stop();
      await s.cleanup();
    }
  });
});
