/**
 * The offers API over HTTP on a real database: success shapes of every endpoint, the whole offer
 * lifecycle with a manual clock (slots, queue promotion, trackers, viewing, expiry, claimable never
 * expiring), claims and their errors, referrals, one-time tokens, probes and the OpenAPI document.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { apiClients, oneTimeTokens, rewardLedger } from "./db/schema";
import type { OfferEvent } from "./engine";
import * as S from "./contract";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

const coins = (amount: number) => ({ kind: "coins" as const, rewardId: "coins", name: "Coins", amount });
const spend = (id: string, amount: number) => ({ kind: "spendCurrency" as const, id, name: id, amount });
const HOUR = 3600;

describe.each(testDatabaseTargets())("offers API on %s", (target) => {
  let t: OffersTestContext;
  let h: Record<string, string>;
  const events: OfferEvent[] = [];
  const define = async (offerId: string, body: Record<string, unknown>) => {
    const res = await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: h, payload: { name: offerId, rewards: [coins(10)], durationSeconds: 24 * HOUR, ...body } });
    expect(res.statusCode, res.body).toBe(200);
    return S.OfferDefinition.parse(res.json());
  };
  const assign = async (playerId: string, offerId: string) => {
    const res = await t.post("/v1/player/offers/assign", { playerId, offerId }, h);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return S.Offer.parse(res.body);
  };
  const snapshot = (playerId: string, body: Record<string, unknown>) => t.post("/v1/player/snapshot", { playerId, ...body }, h);
  const clientFetch = async (playerId: string, viewingCampaigns?: boolean | null) => {
    const res = await t.post("/v1/client/player/campaigns", viewingCampaigns === undefined ? {} : { viewingCampaigns }, { "x-game-jwt": await t.jwt(playerId) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return S.ClientCampaignsResponse.parse(res.body);
  };
  const serverFetch = async (playerId: string) => {
    const res = await t.post("/v1/player/campaigns/refresh", { playerId }, h);
    expect(res.status).toBe(200);
    return S.ServerCampaignsRefreshResponse.parse(res.body);
  };
  const statuses = (offers: S.Offer[]) => Object.fromEntries(offers.map((o) => [o.offerId, o.status]));
  const clientClaim = async (playerId: string, instanceId: string, kind: "offer" | "referral" = "offer") =>
    t.post("/v1/client/reward/claim", { kind, instanceId }, { "x-game-jwt": await t.jwt(playerId) });

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    h = t.apiHeaders();
    t.app.offers.engine.onOfferEvent((e) => events.push(e));
  });
  afterAll(async () => t?.close());

  it("answers every endpoint with its documented shape", async () => {
    const gold = await t.inject({ method: "PUT", url: "/v1/currencies/gold", headers: h, payload: { name: "Gold", image: "https://img.example/gold.png" } });
    expect(gold.statusCode).toBe(200);
    expect(S.Currency.parse(gold.json())).toEqual({ gameId: "game-a", id: "gold", name: "Gold", image: "https://img.example/gold.png" });

    const def = await define("shape-offer", { description: "d", image: "https://img.example/o.png", completionConditions: [spend("gold", 50)], realTime: true, priority: 2 });
    expect(def).toMatchObject({ gameId: "game-a", offerId: "shape-offer", realTime: true, priority: 2, durationSeconds: 24 * HOUR });

    const snap = await snapshot("shape-player", {
      username: "Sam",
      daysInGame: 3,
      loginStreak: 2,
      trustScore: 70.5,
      currencies: { gold: { balance: 10, in: 20, out: 10 } },
      levels: { main: { level: 4 } },
    });
    expect(snap.status).toBe(200);
    expect(S.PlayerSnapshot.strict().parse(snap.body)).toMatchObject({ _id: expect.any(String), username: "Sam", trustScore: 70.5 });

    const offer = await assign("shape-player", "shape-offer");
    expect(offer).toMatchObject({ status: "surfaced", playerId: "shape-player", gameId: "game-a", completionTrackers: { spendCurrency: 0 } });
    expect(offer.expiresAt).toBe(new Date(t.clock.now().getTime() + 24 * HOUR * 1000).toISOString());

    const client = await clientFetch("shape-player");
    expect(Object.keys(client).sort()).toEqual(["offers", "player", "playerData", "snapshot"]);
    expect(Object.keys(client.player.snapshot).sort()).toEqual(["_id", "daysInGame", "gameId", "loginStreak", "playerId", "trustScore", "username"]);
    expect(Object.keys(client.snapshot).sort()).toEqual(["_id", "currencies", "daysInGame", "gameId", "levels", "loginStreak", "playerId", "trustScore", "username"]);
    expect(client.snapshot.currencies.gold).toEqual({ balance: 10, in: 20, out: 10 });
    expect(client.snapshot.levels.main).toEqual({ level: 4 });
    expect(client.playerData).toEqual({ gameId: "game-a", playerId: "shape-player", currencies: { gold: { id: "gold", name: "Gold", balance: 10, image: "https://img.example/gold.png" } } });
    expect(client.player.data).toEqual(client.playerData);
    expect(S.Offer.strict().parse(client.offers[0])).toMatchObject({ offerId: "shape-offer", image: "https://img.example/o.png", completionConditions: [spend("gold", 50)] });

    const server = await serverFetch("shape-player");
    expect(Object.keys(server).sort()).toEqual(["gameId", "offers", "player", "playerData", "playerSnapshot", "token"]);
    expect(server).not.toHaveProperty("snapshot");
    expect(server.gameId).toBe("game-a");
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const generated = await t.post("/v1/auth/one_time_token/generate", {}, { "x-game-jwt": await t.jwt("shape-player") });
    expect(generated.status).toBe(200);
    expect(S.OneTimeTokenGenerateResponse.strict().parse(generated.body).token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const redeemed = await t.post("/v1/auth/one_time_token/redeem", { token: generated.body.token, gameId: "game-a" });
    expect(redeemed.status).toBe(200);
    expect(S.OneTimeTokenRedeemResponse.strict().parse(redeemed.body)).toMatchObject({ playerId: "shape-player", gameId: "game-a" });

    await snapshot("shape-player", { currencies: { gold: { balance: 0, in: 20, out: 60 } } });
    const claim = await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId: offer.instanceId, playerId: "shape-player" }, h);
    expect(claim.status).toBe(200);
    expect(S.ServerClaimResponse.strict().parse(claim.body)).toEqual({ message: expect.any(String), rewards: [coins(10)] });

    await define("shape-free", {});
    const free = await assign("shape-player", "shape-free");
    await clientFetch("shape-player", true);
    const clientClaimed = await clientClaim("shape-player", free.instanceId);
    expect(clientClaimed.status).toBe(200);
    expect(S.ClientClaimResponse.strict().parse(clientClaimed.body).message).toEqual(expect.any(String));

    const referral = await t.post("/v1/referrals", { referrerId: "shape-player", refereeId: "shape-friend", rewards: [coins(5)] }, h);
    expect(referral.status).toBe(200);
    expect(S.Referral.strict().parse(referral.body)).toMatchObject({ status: "pending", referrerId: "shape-player", refereeId: "shape-friend" });
  });

  it("fills slots, queues, promotes by priority then age, tracks, views, expires; claimable never expires", async () => {
    const p = "life-player";
    await define("l-cond", { completionConditions: [spend("gold", 100)], durationSeconds: 24 * HOUR });
    await define("l-free-1", { durationSeconds: 24 * HOUR });
    await define("l-free-2", { durationSeconds: 24 * HOUR });
    await define("l-mid-old", { priority: 5, durationSeconds: 24 * HOUR });
    await define("l-mid-new", { priority: 5, durationSeconds: 24 * HOUR });
    await define("l-top", { priority: 9, durationSeconds: 1 * HOUR, realTime: true });
    await snapshot(p, { currencies: { gold: { balance: 500, in: 500, out: 40 } } });

    const cond = await assign(p, "l-cond");
    const free1 = await assign(p, "l-free-1");
    const free2 = await assign(p, "l-free-2");
    t.clock.advance(1000);
    const midOld = await assign(p, "l-mid-old");
    t.clock.advance(1000);
    await assign(p, "l-mid-new");
    t.clock.advance(1000);
    await assign(p, "l-top");
    expect([cond.status, free1.status, free2.status, midOld.status]).toEqual(["surfaced", "surfaced", "surfaced", "inQueue"]);

    // client view hides the queue; server view lists all
    expect(statuses((await clientFetch(p)).offers)).toEqual({ "l-cond": "surfaced", "l-free-1": "surfaced", "l-free-2": "surfaced" });
    expect(Object.values(statuses((await serverFetch(p)).offers)).filter((s) => s === "inQueue")).toHaveLength(3);

    // viewing: surfaced → viewed; without conditions → claimable in the same fetch
    const viewed = await clientFetch(p, true);
    expect(statuses(viewed.offers)).toEqual({ "l-cond": "viewed", "l-free-1": "claimable", "l-free-2": "claimable" });
    // viewingCampaigns null/false change nothing
    expect(statuses((await clientFetch(p, null)).offers)).toEqual(statuses(viewed.offers));

    // trackers: out delta since surfacing (baseline 40), capped at the amount
    await snapshot(p, { currencies: { gold: { balance: 440, in: 500, out: 100 } } });
    let offers = (await clientFetch(p)).offers;
    expect(offers.find((o) => o.offerId === "l-cond")).toMatchObject({ status: "viewed", completionTrackers: { spendCurrency: 60 } });
    await snapshot(p, { currencies: { gold: { balance: 0, in: 500, out: 400 } } });
    offers = (await clientFetch(p)).offers;
    expect(offers.find((o) => o.offerId === "l-cond")).toMatchObject({ status: "claimable", completionTrackers: { spendCurrency: 100 } });

    // a claim frees a slot: highest priority first
    expect((await clientClaim(p, free1.instanceId)).status).toBe(200);
    let all = statuses((await serverFetch(p)).offers);
    expect(all).toMatchObject({ "l-free-1": "claimed", "l-top": "surfaced", "l-mid-old": "inQueue", "l-mid-new": "inQueue" });
    // equal priority: the oldest first
    expect((await clientClaim(p, free2.instanceId)).status).toBe(200);
    all = statuses((await serverFetch(p)).offers);
    expect(all).toMatchObject({ "l-mid-old": "surfaced", "l-mid-new": "inQueue" });

    // expiry on read frees a slot too (l-top lives one hour from its surfacing)
    t.clock.advance(2 * HOUR * 1000);
    all = statuses((await serverFetch(p)).offers);
    expect(all).toMatchObject({ "l-top": "expired", "l-mid-new": "surfaced", "l-cond": "claimable" });

    // claimable never expires; the others do
    t.clock.advance(30 * 24 * HOUR * 1000);
    all = statuses((await serverFetch(p)).offers);
    expect(all).toEqual({
      "l-cond": "claimable",
      "l-free-1": "claimed",
      "l-free-2": "claimed",
      "l-mid-old": "expired",
      "l-mid-new": "expired",
      "l-top": "expired",
    });
    expect((await clientClaim(p, cond.instanceId)).status).toBe(200);

    // history: every transition, with cause, per-player monotonic sequence
    const history = await t.app.offers.engine.eventsSince("game-a", p, 0);
    expect(history.map((e) => e.seq)).toEqual(history.map((_, i) => i + 1));
    const ofCond = history.filter((e) => e.instanceId === cond.instanceId).map((e) => `${e.fromStatus}->${e.toStatus}:${e.cause}`);
    expect(ofCond).toEqual(["null->surfaced:assign", "surfaced->viewed:viewingCampaigns", "viewed->claimable:snapshot", "claimable->claimed:claim"]);
    expect(history.some((e) => e.type === "expired" && e.cause === "expiry")).toBe(true);
    expect(history.some((e) => e.type === "surfaced" && e.cause === "slot-freed")).toBe(true);

    // domain events reached the listener, in order, with the offer after the transition
    const mine = events.filter((e) => e.playerId === p);
    expect(mine.map((e) => e.seq)).toEqual(history.map((e) => e.seq));
    const top = mine.find((e) => e.type === "surfaced" && e.offer.offerId === "l-top");
    expect(top?.offer).toMatchObject({ status: "surfaced", realTime: true });
    expect(new Set(mine.map((e) => e.type))).toEqual(new Set(["surfaced", "queued", "viewed", "claimable", "claimed", "expired"]));
  });

  it("expires a queued offer that waited past its duration, and the sweep expires without a read", async () => {
    const p = "sweep-player";
    await define("s-long-1", { durationSeconds: 100 * HOUR });
    await define("s-long-2", { durationSeconds: 100 * HOUR });
    await define("s-short", { durationSeconds: HOUR });
    await define("s-queued", { durationSeconds: HOUR });
    await assign(p, "s-long-1");
    await assign(p, "s-long-2");
    const short = await assign(p, "s-short");
    const queued = await assign(p, "s-queued");
    expect(queued.status).toBe("inQueue");
    t.clock.advance(2 * HOUR * 1000);
    const settled = await t.app.offers.engine.sweepExpired();
    expect(settled).toBeGreaterThanOrEqual(1);
    const history = await t.app.offers.engine.eventsSince("game-a", p, 0);
    const expired = history.filter((e) => e.type === "expired");
    expect(expired.map((e) => e.instanceId).sort()).toEqual([short.instanceId, queued.instanceId].sort());
    expect(expired.every((e) => e.cause === "expiry")).toBe(true);
    expect(statuses((await serverFetch(p)).offers)).toEqual({ "s-long-1": "surfaced", "s-long-2": "surfaced", "s-short": "expired", "s-queued": "expired" });
  });

  it("keys trackers by kind:id when an offer has two conditions of one kind", async () => {
    const p = "two-cond-player";
    await define("two-cond", { completionConditions: [spend("gold", 10), spend("gems", 2)] });
    const offer = await assign(p, "two-cond");
    expect(offer.completionTrackers).toEqual({ "spendCurrency:gold": 0, "spendCurrency:gems": 0 });
    await snapshot(p, { currencies: { gold: { balance: 0, in: 0, out: 15 } } });
    expect((await clientFetch(p)).offers[0]).toMatchObject({ status: "surfaced", completionTrackers: { "spendCurrency:gold": 10, "spendCurrency:gems": 0 } });
    await snapshot(p, { currencies: { gems: { balance: 0, in: 0, out: 2 } } });
    expect((await clientFetch(p)).offers[0]).toMatchObject({ status: "claimable" });
  });

  it("moves the trackers of every offer one push touches, and leaves the others as they were", async () => {
    const p = "many-trackers-player";
    await define("mt-gold", { completionConditions: [spend("gold", 100)] });
    await define("mt-gems", { completionConditions: [spend("gems", 50)] });
    await define("mt-tickets", { completionConditions: [spend("tickets", 10)] });
    for (const offerId of ["mt-gold", "mt-gems", "mt-tickets"]) await assign(p, offerId);
    await snapshot(p, { currencies: { gold: { balance: 0, in: 0, out: 30 }, gems: { balance: 0, in: 0, out: 20 } } });
    const progress = async () => Object.fromEntries((await clientFetch(p)).offers.map((o) => [o.offerId, [o.status, o.completionTrackers]]));
    expect(await progress()).toEqual({ "mt-gold": ["surfaced", { spendCurrency: 30 }], "mt-gems": ["surfaced", { spendCurrency: 20 }], "mt-tickets": ["surfaced", { spendCurrency: 0 }] });
    // One completes and one moves in the same push.
    await snapshot(p, { currencies: { gold: { balance: 0, in: 0, out: 130 }, tickets: { balance: 0, in: 0, out: 4 } } });
    expect(await progress()).toEqual({ "mt-gold": ["claimable", { spendCurrency: 100 }], "mt-gems": ["surfaced", { spendCurrency: 20 }], "mt-tickets": ["surfaced", { spendCurrency: 4 }] });
  });

  it("answers claim errors: 404 unknown or someone else's, 409 not claimable or already claimed", async () => {
    await define("c-offer", {});
    const offer = await assign("claimer", "c-offer");
    expect(await clientClaim("claimer", "no-such-instance")).toEqual({ status: 404, body: { message: "offer-not-found" } });
    expect(await clientClaim("claimer", offer.instanceId)).toEqual({ status: 409, body: { message: "offer-not-claimable" } });
    await clientFetch("claimer", true);
    expect(await clientClaim("someone-else", offer.instanceId)).toEqual({ status: 404, body: { message: "offer-not-found" } });
    expect((await clientClaim("claimer", offer.instanceId)).status).toBe(200);
    expect(await clientClaim("claimer", offer.instanceId)).toEqual({ status: 409, body: { message: "offer-not-claimable" } });
    const ledger = await t.database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, offer.instanceId));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ playerId: "claimer", sourceKind: "offer", rewards: [coins(10)] });
  });

  it("refuses duplicate assignment, unknown definitions and a mismatched offerId", async () => {
    await define("dup", {});
    await assign("dup-player", "dup");
    expect(await t.post("/v1/player/offers/assign", { playerId: "dup-player", offerId: "dup" }, h)).toEqual({ status: 409, body: { message: "offer-already-assigned" } });
    expect(await t.post("/v1/player/offers/assign", { playerId: "dup-player", offerId: "nope" }, h)).toEqual({ status: 404, body: { message: "offer-not-found" } });
    const mismatch = await t.inject({ method: "PUT", url: "/v1/offers/definitions/a", headers: h, payload: { offerId: "b", name: "x", rewards: [coins(1)], durationSeconds: 60 } });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ message: "offer-id-mismatch" });
    // upsert replaces the definition; the instance keeps what was promised
    const updated = await define("dup", { rewards: [coins(999)] });
    expect(updated.rewards).toEqual([coins(999)]);
    expect((await serverFetch("dup-player")).offers[0].rewards).toEqual([coins(10)]);
  });

  it("runs referrals pending → claimable → claimed, once, and lists them to the referrer", async () => {
    const referralsOf = async (playerId: string) => {
      const res = await t.post("/v1/client/player/referrals", {}, { "x-game-jwt": await t.jwt(playerId) });
      expect(res.status).toBe(200);
      return S.ClientReferralsResponse.strict().parse(res.body).referrals;
    };
    const created = await t.post("/v1/referrals", { referrerId: "ref-a", refereeId: "ref-b", rewards: [coins(7)] }, h);
    expect(created.body.status).toBe("pending");
    const id = created.body.instanceId as string;
    expect(await referralsOf("ref-a")).toEqual([{ instanceId: id, gameId: "game-a", referrerId: "ref-a", refereeId: "ref-b", rewards: [coins(7)], status: "pending", createdAt: expect.any(String) }]);
    expect(await referralsOf("ref-b")).toEqual([]); // the referee does not get the referrer's rewards
    expect(await clientClaim("ref-a", id, "referral")).toEqual({ status: 409, body: { message: "offer-not-claimable" } });
    await snapshot("ref-b", { username: "Bee" });
    expect(await referralsOf("ref-a")).toMatchObject([{ status: "claimable", refereeUsername: "Bee" }]);
    expect(await clientClaim("ref-b", id, "referral")).toEqual({ status: 404, body: { message: "offer-not-found" } });
    const claimed = await t.post("/v1/reward/sdk/claim", { kind: "referral", instanceId: id, playerId: "ref-a" }, h);
    expect(claimed).toEqual({ status: 200, body: { message: expect.any(String), rewards: [coins(7)] } });
    expect((await referralsOf("ref-a")).map((r) => r.status)).toEqual(["claimed"]);
    expect(await clientClaim("ref-a", id, "referral")).toEqual({ status: 409, body: { message: "offer-not-claimable" } });
    expect(await t.post("/v1/referrals", { referrerId: "ref-c", refereeId: "ref-b", rewards: [coins(1)] }, h)).toEqual({ status: 409, body: { message: "referral-exists" } });
    expect(await t.post("/v1/referrals", { referrerId: "ref-c", refereeId: "ref-c", rewards: [coins(1)] }, h)).toEqual({ status: 400, body: { message: "referral-self" } });
    // a referee already in the game makes the referral claimable at once
    const direct = await t.post("/v1/referrals", { referrerId: "ref-d", refereeId: "ref-a", rewards: [coins(1)] }, h);
    expect(direct.body.status).toBe("claimable");
  });

  it("one-time tokens: hashed, single use, 5 minutes, bound to the game; the access token works", async () => {
    const gen = async () => (await t.post("/v1/auth/one_time_token/generate", {}, { "x-game-jwt": await t.jwt("token-player") })).body.token as string;
    const token = await gen();
    const stored = await t.database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.playerId, "token-player"));
    expect(stored).toHaveLength(1);
    expect(stored[0].tokenHash).not.toContain(token);
    expect(stored[0].tokenHash).toMatch(/^[0-9a-f]{64}$/);

    expect(await t.post("/v1/auth/one_time_token/redeem", { token, gameId: "other-game" })).toEqual({ status: 401, body: { message: "token-invalid" } });
    const ok = await t.post("/v1/auth/one_time_token/redeem", { token, gameId: "game-a" });
    expect(ok.status).toBe(200);
    const access = await t.post("/v1/client/player/campaigns", {}, { authorization: `Bearer ${ok.body.accessToken}` });
    expect(access.status).toBe(200);
    expect(access.body.snapshot.playerId).toBe("token-player");
    expect(await t.post("/v1/auth/one_time_token/redeem", { token, gameId: "game-a" })).toEqual({ status: 410, body: { message: "token-used" } });
    expect(await t.post("/v1/auth/one_time_token/redeem", { token: "x".repeat(43), gameId: "game-a" })).toEqual({ status: 401, body: { message: "token-invalid" } });

    const late = await gen();
    t.clock.advance(5 * 60 * 1000);
    expect(await t.post("/v1/auth/one_time_token/redeem", { token: late, gameId: "game-a" })).toEqual({ status: 410, body: { message: "token-expired" } });
    const justInTime = await gen();
    t.clock.advance(5 * 60 * 1000 - 1);
    expect((await t.post("/v1/auth/one_time_token/redeem", { token: justInTime, gameId: "game-a" })).status).toBe(200);

    // the access token lasts 15 minutes
    t.clock.advance(15 * 60 * 1000);
    expect(await t.post("/v1/client/player/campaigns", {}, { authorization: `Bearer ${ok.body.accessToken}` })).toEqual({ status: 401, body: { message: "jwt-expired" } });
  });

  it("stores API keys encrypted", async () => {
    const rows = await t.database.db.select().from(apiClients);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.encryptedKey).not.toContain(t.game.apiKey);
      expect(row.encryptedKey.split(".")).toHaveLength(3);
    }
  });

  it("serves probes, the OpenAPI document, the docs page and JSON 404s", async () => {
    expect((await t.inject({ method: "GET", url: "/health" })).json()).toEqual({ status: "ok", database: "ok" });
    expect((await t.inject({ method: "GET", url: "/ready" })).statusCode).toBe(200);
    const doc = await t.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(doc.statusCode).toBe(200);
    const openapi = doc.json();
    expect(openapi.openapi).toBe("3.1.0");
    for (const path of [
      "/v1/auth/one_time_token/generate",
      "/v1/auth/one_time_token/redeem",
      "/v1/client/player/campaigns",
      "/v1/player/campaigns/refresh",
      "/v1/client/reward/claim",
      "/v1/reward/sdk/claim",
      "/v1/offers/definitions/{offerId}",
      "/v1/player/offers/assign",
      "/v1/player/snapshot",
      "/v1/referrals",
    ]) {
      expect(openapi.paths, path).toHaveProperty([path]);
    }
    const refresh = openapi.paths["/v1/player/campaigns/refresh"].post;
    const ok = refresh.responses["200"].content["application/json"].schema;
    expect(Object.keys(ok.properties).sort()).toEqual(["gameId", "offers", "player", "playerData", "playerSnapshot", "token"]);
    expect((await t.inject({ method: "GET", url: "/v1/docs" })).statusCode).toBeLessThan(400);
    const missing = await t.inject({ method: "GET", url: "/v1/nothing-here" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: "not-found" });
    expect(missing.headers["x-request-id"]).toBeTruthy();
  });

  it("counts ledger rows once per claim overall", async () => {
    const dupes = await t.database.db.execute(sql`select source_id from offers_reward_ledger group by source_kind, source_id having count(*) > 1`);
    expect((dupes as unknown as { rows: unknown[] }).rows).toEqual([]);
  });
});
