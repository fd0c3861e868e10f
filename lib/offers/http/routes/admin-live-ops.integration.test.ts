/**
 * The live-ops admin API as the portal calls it: create a targeted definition, see its audience
 * size, preview it for players, activate it (a surfacing job runs), edit it with If-Match, and read
 * its funnel after players surface, view and claim; plus the game-server PUT with the same fields.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../../db/testing";
import { SurfacingJobRunner } from "../../engine/surfacing-jobs";
import { startOffersTestApp, type OffersTestContext } from "../../testing";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };
const reward = { kind: "coins", rewardId: "gold", name: "Gold", amount: 50 };
const streakOffer = {
  offerId: "streak-bonus",
  name: "Streak bonus",
  description: "For loyal players",
  rewards: [reward],
  durationSeconds: 86_400,
  realTime: true,
  audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }] },
};

describe.each(testDatabaseTargets())("live-ops admin API on %s", (target) => {
  let t: OffersTestContext;
  const admin = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/admin/games/game-a${url}`, headers: { ...ADMIN, ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    for (const [playerId, loginStreak] of [["p1", 5], ["p2", 1], ["p3", 3], ["p4", 0]] as const) {
      expect((await t.post("/v1/player/snapshot", { playerId, loginStreak }, t.apiHeaders())).status).toBe(200);
    }
  });
  afterAll(async () => t?.close());

  it("creates a draft, counts its audience, previews it, activates it and measures it", async () => {
    const created = await admin("POST", "/definitions", streakOffer);
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ changed: true, before: null, job: null, definition: { status: "draft", version: 1, audience: streakOffer.audience } });
    expect((await admin("POST", "/definitions", streakOffer)).json()).toEqual({ message: "definition-exists" });

    expect((await admin("POST", "/audience/count", { audience: streakOffer.audience })).json()).toEqual({ matching: 2, players: 4 });
    const preview = await admin("POST", "/definitions/streak-bonus/preview", { playerId: "p1" });
    expect(preview.json()).toMatchObject({ wouldSurface: false, failed: "status" });

    const activated = await admin("POST", "/definitions/streak-bonus/activate", undefined, { "if-match": '"1"' });
    expect(activated.statusCode).toBe(200);
    expect(activated.json()).toMatchObject({ definition: { status: "active", version: 2 }, before: { status: "draft" }, job: { status: "queued", reason: "activated" } });
    const runner = new SurfacingJobRunner(t.app.offers.engine);
    while (await runner.runOnce()) {
      // run every queued job
    }
    const detail = (await admin("GET", "/definitions/streak-bonus")).json();
    expect(detail.jobs[0]).toMatchObject({ status: "done", playersTotal: 4, playersEvaluated: 4, activations: 2 });
    expect(detail.audienceSummary).toBe("loginStreak ≥ 3");
    expect((await admin("POST", "/definitions/streak-bonus/preview", { playerId: "p2" })).json()).toMatchObject({
      wouldSurface: false,
      failed: "audience",
      checks: expect.arrayContaining([{ check: "audience", passed: false, detail: "loginStreak is 1, needs ≥ 3" }]),
    });
    expect((await admin("POST", "/definitions/streak-bonus/preview", { playerId: "p1" })).json()).toMatchObject({ wouldSurface: false, failed: "open-instance" });

    // p1 views and claims (no conditions: claimable once viewed).
    const campaigns = await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { authorization: `Bearer ${await t.jwt("p1")}` });
    const offer = campaigns.body.offers.find((o: { offerId: string }) => o.offerId === "streak-bonus");
    expect(offer.status).toBe("claimable");
    expect((await t.post("/v1/client/reward/claim", { kind: "offer", instanceId: offer.instanceId }, { authorization: `Bearer ${await t.jwt("p1")}` })).status).toBe(200);

    const funnel = (await admin("GET", "/definitions/streak-bonus/funnel?days=3")).json();
    expect(funnel.total).toEqual({ assigned: 2, surfaced: 2, viewed: 1, claimable: 1, claimed: 1, expired: 0, conversion: 0.5 });
    expect(funnel.byDay).toHaveLength(3);
    expect(funnel.byDay.at(-1)).toMatchObject({ day: "2026-01-01", assigned: 2, claimed: 1 });
    const list = (await admin("GET", "/definitions")).json();
    const summary = list.definitions.find((d: { offerId: string }) => d.offerId === "streak-bonus");
    expect(summary).toMatchObject({ status: "active", audienceSummary: "loginStreak ≥ 3", funnel: { claimed: 1 } });
    expect(summary.claimsPerDay).toHaveLength(14);
    expect(summary.claimsPerDay.at(-1)).toBe(1);
  });

  it("edits with If-Match, refuses a stale version, and keeps instances already given as they were", async () => {
    const detail = await admin("GET", "/definitions/streak-bonus");
    const version = detail.json().definition.version;
    expect(detail.headers.etag).toBe(`"${version}"`);
    const { offerId: _id, ...body } = streakOffer;
    const edited = await admin("PUT", "/definitions/streak-bonus", { ...body, rewards: [{ ...reward, amount: 99 }] }, { "if-match": `"${version}"` });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ definition: { version: version + 1, status: "active" }, before: { rewards: [reward] } });
    const stale = await admin("PUT", "/definitions/streak-bonus", body, { "if-match": `"${version}"` });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ message: "definition-changed" });
    // p3 was given the offer before the edit: still 50 Gold.
    const p3 = await t.post("/v1/player/campaigns/refresh", { playerId: "p3" }, t.apiHeaders());
    expect(p3.body.offers.find((o: { offerId: string }) => o.offerId === "streak-bonus").rewards).toEqual([reward]);
  });

  it("refuses a fault in a rule at its path, an unknown game and a missing token", async () => {
    const bad = await admin("POST", "/definitions", { ...streakOffer, offerId: "bad", audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }, { field: "streak", op: "gte", value: 3 }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: "invalid-request", issues: [{ path: ["audience", "all", 1, "field"], message: expect.stringContaining("unknown field") }] });
    const unknownGame = await t.inject({ method: "GET", url: "/v1/admin/games/nope/definitions", headers: ADMIN });
    expect(unknownGame.statusCode).toBe(404);
    expect((await t.inject({ method: "GET", url: "/v1/admin/games/game-a/definitions" })).statusCode).toBe(401);
    expect((await admin("POST", "/definitions/missing/activate")).json()).toEqual({ message: "offer-not-found" });
    expect((await admin("POST", "/definitions/streak-bonus/preview", { playerId: "nobody" })).json()).toEqual({ message: "player-not-found" });
  });

  it("counts an audience inside a rollout only with the offer whose draw it is, and refuses a rollout without it", async () => {
    const everyone = { all: [] };
    const players = (await admin("POST", "/audience/count", { audience: everyone })).json().players;
    expect((await admin("POST", "/audience/count", { audience: everyone, rollout: 0, offerId: "streak-bonus" })).json()).toEqual({ matching: 0, players });
    expect((await admin("POST", "/audience/count", { audience: everyone, rollout: 100, offerId: "streak-bonus" })).json()).toEqual({ matching: players, players });
    for (const rollout of [0, 50]) {
      const missing = await admin("POST", "/audience/count", { audience: everyone, rollout });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toEqual({ message: "invalid-request", issues: [{ path: ["offerId"], message: "required with rollout: which players a rollout takes depends on the offer" }] });
    }
  });

  it("pauses, archives (then refuses activation) and restores to draft", async () => {
    expect((await admin("POST", "/definitions/streak-bonus/pause")).json()).toMatchObject({ definition: { status: "paused" }, job: null });
    expect((await admin("POST", "/definitions/streak-bonus/archive")).json()).toMatchObject({ definition: { status: "archived" } });
    const refused = await admin("POST", "/definitions/streak-bonus/activate");
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: "definition-archived" });
    expect((await admin("POST", "/definitions/streak-bonus/restore")).json()).toMatchObject({ definition: { status: "draft" } });
  });

  it("a write that changes nothing keeps the version and queues no job, on both APIs, whatever the order of the keys", async () => {
    const jobsOf = async (offerId: string) => (await t.app.offers.engine.surfacingJobs("game-a", offerId)).length;
    const body = {
      name: "Same again",
      description: "Unchanged",
      rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5, image: "https://cdn.example/gold.png" }],
      durationSeconds: 600,
      audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }, { not: { field: "username", op: "in", value: ["bot"] } }] },
      schedule: { startsAt: "2025-12-01T00:00:00.000Z", endsAt: null },
      limits: { maxActivationsPerPlayer: 2, cooldownSeconds: 60, maxClaimsTotal: 100 },
      variants: [
        { variantId: "a", weight: 1, rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5 }] },
        { variantId: "b", weight: 2, rewards: [{ kind: "item", rewardId: "sword", name: "Sword", amount: 1 }] },
      ],
    };
    // The same content with every object's keys in reverse order.
    const reversed = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(reversed) : value && typeof value === "object" ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])) : value;

    const gameServerPut = (payload: unknown) => t.inject({ method: "PUT", url: "/v1/offers/definitions/same-server", headers: t.apiHeaders(), payload: payload as object });
    const first = await gameServerPut(body);
    expect(first.json()).toMatchObject({ version: 1, status: "active" });
    const jobs = await jobsOf("same-server");
    expect(jobs).toBe(1);
    for (const payload of [body, reversed(body), body]) {
      const again = await gameServerPut(payload);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ version: 1 });
    }
    expect(await jobsOf("same-server")).toBe(jobs);

    expect((await admin("POST", "/definitions", { ...body, offerId: "same-admin", status: "active" })).json()).toMatchObject({ definition: { version: 1 } });
    const adminJobs = await jobsOf("same-admin");
    for (const payload of [body, reversed(body)]) {
      const again = await admin("PUT", "/definitions/same-admin", payload, { "if-match": '"1"' });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ changed: false, job: null, definition: { version: 1 } });
    }
    expect(await jobsOf("same-admin")).toBe(adminJobs);
    // A real change still counts.
    expect((await admin("PUT", "/definitions/same-admin", { ...body, rollout: 50 }, { "if-match": '"1"' })).json()).toMatchObject({ changed: true, definition: { version: 2 } });
  });

  it("game servers write the same targeting fields; a new definition is active and surfaces on the next push", async () => {
    const put = await t.inject({
      method: "PUT",
      url: "/v1/offers/definitions/whale",
      headers: t.apiHeaders(),
      payload: { name: "Whale pack", durationSeconds: 600, audience: { field: "currencies.gems.balance", op: "gte", value: 1000 }, variants: [{ variantId: "a", weight: 1, rewards: [reward] }, { variantId: "b", weight: 1, rewards: [{ ...reward, amount: 80 }] }] },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ status: "active", version: 1, rewards: [reward], variants: [{ variantId: "a" }, { variantId: "b" }] });
    t.app.offers.engine.invalidateTargeting("game-a");
    await t.post("/v1/player/snapshot", { playerId: "rich", currencies: { gems: { balance: 5000, in: 5000, out: 0 } } }, t.apiHeaders());
    const refresh = await t.post("/v1/player/campaigns/refresh", { playerId: "rich" }, t.apiHeaders());
    expect(refresh.body.offers.map((o: { offerId: string; status: string }) => [o.offerId, o.status])).toEqual([["whale", "surfaced"]]);
    // Without rewards or variants, a definition is refused with the path of the fault.
    const bare = await t.inject({ method: "PUT", url: "/v1/offers/definitions/bare", headers: t.apiHeaders(), payload: { name: "Bare", durationSeconds: 60 } });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().issues).toEqual([{ path: ["rewards"], message: "rewards are required unless variants are given" }]);
  });
});
