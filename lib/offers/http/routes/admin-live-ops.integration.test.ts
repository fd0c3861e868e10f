/**
 * The live-ops admin API as the portal calls it: create a targeted definition, see its audience
 * size, preview it for players, activate it (a surfacing job runs), edit it with If-Match, and read
 * its funnel after players surface, view and claim; plus the game-server PUT with the same fields.
 * Every change of an existing definition names its ETag (If-Match): 428 without, 412 with the current
 * ETag when stale; a game server's PUT may omit it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { SurfacingJobRunner } from "../../engine/surfacing-jobs";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

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
  /** The definition's current ETag, as an editor reads it. */
  const etagOf = async (offerId: string) => (await admin("GET", `/definitions/${offerId}`)).headers.etag as string;
  const ifMatch = async (offerId: string) => ({ "if-match": await etagOf(offerId) });

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
    expect(created.headers.etag).toBe(created.json().definition.etag);
    expect((await admin("POST", "/definitions", streakOffer)).json()).toEqual({ message: "definition-exists" });

    expect((await admin("POST", "/audience/count", { audience: streakOffer.audience })).json()).toEqual({ matching: 2, players: 4 });
    const preview = await admin("POST", "/definitions/streak-bonus/preview", { playerId: "p1" });
    expect(preview.json()).toMatchObject({ wouldSurface: false, failed: "status" });

    const activated = await admin("POST", "/definitions/streak-bonus/activate", undefined, { "if-match": created.json().definition.etag });
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

  it("edits with the ETag of the read only: 428 without If-Match, 412 with a stale one (carrying the current ETag); keeps instances already given", async () => {
    const detail = await admin("GET", "/definitions/streak-bonus");
    const { version, etag } = detail.json().definition;
    // Opaque: the header and the body carry the same tag, and it is not the version.
    expect(detail.headers.etag).toBe(etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(etag).not.toContain(String(version));
    const { offerId: _id, ...body } = streakOffer;
    const edit = { ...body, rewards: [{ ...reward, amount: 99 }] };

    const unconditional = await admin("PUT", "/definitions/streak-bonus", edit);
    expect(unconditional.statusCode).toBe(428);
    expect(unconditional.json()).toEqual({ message: "precondition-required" });
    const edited = await admin("PUT", "/definitions/streak-bonus", edit, { "if-match": etag });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ definition: { version: version + 1, status: "active" }, before: { rewards: [reward] } });
    const current = edited.json().definition.etag;
    expect(edited.headers.etag).toBe(current);
    expect(current).not.toBe(etag);

    const stale = await admin("PUT", "/definitions/streak-bonus", body, { "if-match": etag });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({ message: "precondition-failed", etag: current });
    expect(stale.headers.etag).toBe(current);
    // The tag the 412 names is the one to retry with (a weak form of it too); * matches any.
    expect((await admin("GET", "/definitions/streak-bonus")).json().definition).toMatchObject({ rewards: [{ amount: 99 }] });
    expect((await admin("PUT", "/definitions/streak-bonus", edit, { "if-match": `W/${current}` })).json()).toMatchObject({ changed: false });
    expect((await admin("PUT", "/definitions/streak-bonus", edit, { "if-match": "*" })).statusCode).toBe(200);
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
    expect((await admin("POST", "/definitions/missing/activate", undefined, { "if-match": '"x"' })).json()).toEqual({ message: "offer-not-found" });
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

  it("pauses, archives (then refuses activation) and restores to draft, each with the current ETag", async () => {
    const unconditional = await admin("POST", "/definitions/streak-bonus/pause");
    expect(unconditional.statusCode).toBe(428);
    expect(unconditional.json()).toEqual({ message: "precondition-required" });
    const before = await etagOf("streak-bonus");
    const paused = await admin("POST", "/definitions/streak-bonus/pause", undefined, { "if-match": before });
    expect(paused.json()).toMatchObject({ definition: { status: "paused" }, job: null });
    expect(paused.headers.etag).toBe(paused.json().definition.etag);
    // Archiving on the tag read before the pause: refused, and nothing changes.
    const stale = await admin("POST", "/definitions/streak-bonus/archive", undefined, { "if-match": before });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({ message: "precondition-failed", etag: paused.json().definition.etag });
    expect((await admin("GET", "/definitions/streak-bonus")).json().definition.status).toBe("paused");
    expect((await admin("POST", "/definitions/streak-bonus/archive", undefined, await ifMatch("streak-bonus"))).json()).toMatchObject({ definition: { status: "archived" } });
    const refused = await admin("POST", "/definitions/streak-bonus/activate", undefined, await ifMatch("streak-bonus"));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: "definition-archived" });
    expect((await admin("POST", "/definitions/streak-bonus/restore", undefined, await ifMatch("streak-bonus"))).json()).toMatchObject({ definition: { status: "draft" } });
  });

  it("two editors on the same ETag at once: exactly one change is made, the other is 412 with the winner's ETag", async () => {
    const { offerId: _id, ...body } = streakOffer;
    const created = await admin("POST", "/definitions", { ...streakOffer, offerId: "race" });
    const etag = created.json().definition.etag;
    // Several at once, so that on PostgreSQL their reads overlap: without the row lock more than one would win.
    const answers = await Promise.all([
      ...["Alice", "Bob", "Carol", "Dan", "Eve"].map((name) => admin("PUT", "/definitions/race", { ...body, name }, { "if-match": etag })),
      admin("POST", "/definitions/race/activate", undefined, { "if-match": etag }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().definition;
    for (const loser of answers.filter((a) => a.statusCode === 412)) expect(loser.json()).toEqual({ message: "precondition-failed", etag: winner.etag });
    expect((await admin("GET", "/definitions/race")).json().definition).toMatchObject({ version: 2, name: winner.name, status: winner.status });
  });

  it("a PUT of an id that does not exist creates a draft without If-Match; writing it again then needs one", async () => {
    const { offerId: _id, ...body } = streakOffer;
    const created = await admin("PUT", "/definitions/put-created", body);
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({ changed: true, before: null, definition: { status: "draft", version: 1 } });
    expect((await admin("PUT", "/definitions/put-created", body)).statusCode).toBe(428);
    // If-Match naming a definition that does not exist: nothing to match, nothing created.
    const absent = await admin("PUT", "/definitions/never-made", body, { "if-match": created.json().definition.etag });
    expect(absent.statusCode).toBe(404);
    expect(absent.json()).toEqual({ message: "offer-not-found" });
    expect((await admin("GET", "/definitions/never-made")).statusCode).toBe(404);
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

    const createdAdmin = await admin("POST", "/definitions", { ...body, offerId: "same-admin", status: "active" });
    expect(createdAdmin.json()).toMatchObject({ definition: { version: 1 } });
    const etag = createdAdmin.json().definition.etag;
    const adminJobs = await jobsOf("same-admin");
    for (const payload of [body, reversed(body)]) {
      const again = await admin("PUT", "/definitions/same-admin", payload, { "if-match": etag });
      expect(again.statusCode).toBe(200);
      // Nothing changed: the same ETag, still good for the next change.
      expect(again.json()).toMatchObject({ changed: false, job: null, definition: { version: 1, etag } });
    }
    expect(await jobsOf("same-admin")).toBe(adminJobs);
    // A real change still counts.
    expect((await admin("PUT", "/definitions/same-admin", { ...body, rollout: 50 }, { "if-match": etag })).json()).toMatchObject({ changed: true, definition: { version: 2 } });
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
    expect(put.headers.etag).toBe(put.json().etag);
    t.app.offers.engine.invalidateTargeting("game-a");
    await t.post("/v1/player/snapshot", { playerId: "rich", currencies: { gems: { balance: 5000, in: 5000, out: 0 } } }, t.apiHeaders());
    const refresh = await t.post("/v1/player/campaigns/refresh", { playerId: "rich" }, t.apiHeaders());
    expect(refresh.body.offers.map((o: { offerId: string; status: string }) => [o.offerId, o.status])).toEqual([["whale", "surfaced"]]);
    // Without rewards or variants, a definition is refused with the path of the fault.
    const bare = await t.inject({ method: "PUT", url: "/v1/offers/definitions/bare", headers: t.apiHeaders(), payload: { name: "Bare", durationSeconds: 60 } });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().issues).toEqual([{ path: ["rewards"], message: "rewards are required unless variants are given" }]);
  });

  it("a game server's PUT never needs If-Match, and is refused with 412 when the one it sends is stale", async () => {
    const gameServerPut = (payload: object, headers: Record<string, string> = {}) =>
      t.inject({ method: "PUT", url: "/v1/offers/definitions/server-owned", headers: { ...t.apiHeaders(), ...headers }, payload });
    const definition = { name: "Server owned", durationSeconds: 600, rewards: [reward] };
    const first = await gameServerPut(definition);
    expect(first.statusCode).toBe(200);
    const etag = first.json().etag;
    // An editor changes it in the portal meanwhile.
    const edited = await admin("PUT", "/definitions/server-owned", { ...definition, name: "Edited in the portal" }, { "if-match": etag });
    expect(edited.statusCode).toBe(200);
    const stale = await gameServerPut({ ...definition, name: "Stale" }, { "if-match": etag });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({ message: "precondition-failed", etag: edited.json().definition.etag });
    expect((await gameServerPut({ ...definition, name: "Current" }, { "if-match": edited.json().definition.etag })).json()).toMatchObject({ name: "Current", version: 3 });
    // Without If-Match the game server's write goes through, as before.
    expect((await gameServerPut(definition)).json()).toMatchObject({ name: "Server owned", version: 4 });
  });
});
