// The live-ops routes of the portal on a real portal (test-support/portal/test-portal.ts) in front of a real offers
// service process with its demo game (test-support/portal/test-portal.ts: startOffersServiceForTests): roles (liveops
// may, support and engineers may read the games but get 403 naming the role on the console), the whole
// lifecycle of a targeted definition with If-Match (the service's ETag, passed through untouched: 428
// without, 412 with the current ETag when stale, one winner of two editors), the service's refusals passed
// through with their codes, and an audit entry with before and after for every change.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listAudit } from "@/lib/portal/audit-store";
import { startOffersServiceForTests, startPortalTest, type OffersServiceForTests, type PortalTest } from "@/test-support/portal/test-portal";

const { GET: games } = await import("@/app/api/offers/games/route");
const { GET: players } = await import("@/app/api/offers/games/[gameId]/players/route");
const definitions = await import("@/app/api/offers/games/[gameId]/definitions/route");
const definition = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/route");
const { POST: activate } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/activate/route");
const { POST: pause } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/pause/route");
const { POST: archive } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/archive/route");
const { POST: restore } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/restore/route");
const { POST: preview } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/preview/route");
const { GET: funnel } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/funnel/route");
const { GET: jobs } = await import("@/app/api/offers/games/[gameId]/definitions/[offerId]/jobs/route");
const { POST: count } = await import("@/app/api/offers/games/[gameId]/audience/count/route");

const GAME = "demo-game";
const streak = { field: "loginStreak", op: "gte", value: 3 };
const draft = {
  offerId: "streak-bonus",
  name: "Streak bonus",
  description: "For loyal players",
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }],
  realTime: true,
  durationSeconds: 86_400,
  audience: { all: [streak] },
};
const { offerId: _offerId, ...draftBody } = draft;

let offers: OffersServiceForTests;
let portal: PortalTest;
let lina: Record<string, string>, sam: Record<string, string>, eddie: Record<string, string>;

const req = (url: string, headers: Record<string, string>, init: { method?: string; json?: unknown; ifMatch?: string } = {}) =>
  new Request(`http://portal.test${url}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: { ...headers, ...(init.json !== undefined ? { "content-type": "application/json" } : {}), ...(init.ifMatch ? { "if-match": init.ifMatch } : {}) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
const params = (p: Record<string, string>) => ({ params: Promise.resolve(p) });
const ofGame = params({ gameId: GAME });
const ofOffer = (offerId = "streak-bonus") => params({ gameId: GAME, offerId });
const answer = async (response: Response) => ({ status: response.status, body: await response.json() });
/** The definition's ETag as the console reads it. */
const etagOf = async (offerId = "streak-bonus") => (await definition.GET(req(`/api/offers/games/${GAME}/definitions/${offerId}`, lina), ofOffer(offerId))).headers.get("etag")!;

beforeAll(async () => {
  offers = await startOffersServiceForTests();
  portal = await startPortalTest({ settings: (settings) => ({ ...settings, offersAdmin: () => offers.admin }) });
  lina = await portal.signIn({ id: "lina", name: "Lina", roles: ["engineer", "liveops"] });
  sam = await portal.signIn({ id: "sam", name: "Sam", roles: ["engineer", "support"] });
  eddie = await portal.signIn({ id: "eddie", roles: ["engineer"] });
}, 180_000);
afterAll(async () => {
  await portal?.close();
  await offers?.close();
});

describe("the live-ops routes", () => {
  it("list the games for live ops, support and leads (who decide support grants); anyone else is told which roles may", async () => {
    for (const user of [lina, sam]) {
      const listed = await answer(await games(req("/api/offers/games", user)));
      expect(listed.status).toBe(200);
      expect(listed.body.games.map((g: { gameId: string }) => g.gameId)).toContain(GAME);
    }
    expect(await answer(await games(req("/api/offers/games", eddie)))).toEqual({
      status: 403,
      body: { message: "forbidden", detail: "this needs the support or liveops or lead role", requiredRole: "support or liveops or lead" },
    });
    const found = await answer(await players(req(`/api/offers/games/${GAME}/players?q=cleo`, lina), ofGame));
    expect(found.body.players.map((p: { playerId: string }) => p.playerId)).toEqual(["demo-player-3"]);
  });

  it("count an audience now, and refuse a fault in a rule at its path", async () => {
    // Aria has a login streak of 7; Bram and Cleo of 1.
    expect(await answer(await count(req(`/api/offers/games/${GAME}/audience/count`, lina, { json: { audience: { all: [streak] } } }), ofGame))).toEqual({
      status: 200,
      body: { matching: 1, players: 3 },
    });
    const bad = await answer(await count(req(`/api/offers/games/${GAME}/audience/count`, lina, { json: { audience: { all: [streak, { field: "streak", op: "gte", value: 3 }] } } }), ofGame));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: "invalid-request", issues: [{ path: ["audience", "all", "1", "field"], message: expect.stringContaining("unknown field") }] });
    expect((await count(req(`/api/offers/games/${GAME}/audience/count`, sam, { json: { audience: { all: [] } } }), ofGame)).status).toBe(403);
  });

  it("create a draft (liveops only), refuse a taken id, and audit the creation", async () => {
    for (const user of [sam, eddie]) {
      expect(await answer(await definitions.POST(req(`/api/offers/games/${GAME}/definitions`, user, { json: draft }), ofGame))).toEqual({
        status: 403,
        body: { message: "forbidden", detail: "this needs the liveops role", requiredRole: "liveops" },
      });
    }
    const created = await answer(await definitions.POST(req(`/api/offers/games/${GAME}/definitions`, lina, { json: draft }), ofGame));
    expect(created).toMatchObject({ status: 201, body: { changed: true, before: null, definition: { offerId: "streak-bonus", status: "draft", version: 1, audience: { all: [streak] } } } });
    expect(await answer(await definitions.POST(req(`/api/offers/games/${GAME}/definitions`, lina, { json: draft }), ofGame))).toMatchObject({
      status: 409,
      body: { message: "definition-exists" },
    });

    const [entry] = (await listAudit(portal.db, { action: "offer-definition.create" })).entries;
    expect(entry).toMatchObject({ actor: "lina", targetType: "offer-definition", target: `${GAME}/streak-bonus`, before: null, after: { name: "Streak bonus", status: "draft", version: 1, realTime: true } });

    const listed = await answer(await definitions.GET(req(`/api/offers/games/${GAME}/definitions?days=7`, lina), ofGame));
    expect(listed.body.days).toBe(7);
    expect(listed.body.definitions.find((d: { offerId: string }) => d.offerId === "streak-bonus")).toMatchObject({ audienceSummary: "loginStreak ≥ 3", claimsPerDay: [0, 0, 0, 0, 0, 0, 0] });
    expect((await definitions.GET(req(`/api/offers/games/${GAME}/definitions`, sam), ofGame)).status).toBe(403);
  });

  it("edit with If-Match only: the service's ETag untouched, 428 without, 412 with the current ETag when stale; the audit keeps what changed", async () => {
    const got = await definition.GET(req(`/api/offers/games/${GAME}/definitions/streak-bonus`, lina), ofOffer());
    const read = await got.json();
    expect(read.audienceSummary).toBe("loginStreak ≥ 3");
    const etag = got.headers.get("etag")!;
    expect(etag).toBe(read.definition.etag);
    // The portal passes the offers service's own tag through.
    const direct = await fetch(`${offers.baseUrl}/v1/admin/games/${GAME}/definitions/streak-bonus`, { headers: { authorization: `Bearer ${offers.admin.token}` } });
    expect(direct.headers.get("etag")).toBe(etag);

    const url = `/api/offers/games/${GAME}/definitions/streak-bonus`;
    const edited = { ...draftBody, rewards: [{ ...draftBody.rewards[0], amount: 99 }] };
    expect(await answer(await definition.PUT(req(url, lina, { method: "PUT", json: edited }), ofOffer()))).toMatchObject({ status: 428, body: { message: "precondition-required" } });
    expect((await definition.PUT(req(url, sam, { method: "PUT", json: edited, ifMatch: etag }), ofOffer())).status).toBe(403);
    const saved = await definition.PUT(req(url, lina, { method: "PUT", json: edited, ifMatch: etag }), ofOffer());
    expect(saved.status).toBe(200);
    const after = (await saved.json()).definition;
    expect(after).toMatchObject({ version: 2, rewards: [{ amount: 99 }] });
    expect(saved.headers.get("etag")).toBe(after.etag);
    expect(after.etag).not.toBe(etag);
    const stale = await definition.PUT(req(url, lina, { method: "PUT", json: draftBody, ifMatch: etag }), ofOffer());
    expect(stale.headers.get("etag")).toBe(after.etag);
    expect(await answer(stale)).toEqual({ status: 412, body: { message: "precondition-failed", detail: expect.stringContaining("reload to see their change"), etag: after.etag } });
    expect((await answer(await definition.GET(req(url, lina), ofOffer()))).body.definition).toMatchObject({ version: 2, rewards: [{ amount: 99 }] });

    const [entry] = (await listAudit(portal.db, { action: "offer-definition.update" })).entries;
    expect(entry).toMatchObject({
      actor: "lina",
      summary: expect.stringContaining("rewards"),
      before: { rewards: [{ amount: 50 }], version: 1 },
      after: { rewards: [{ amount: 99 }], version: 2 },
    });
  });

  it("activate (its job runs over the players), preview for a player, read the funnel; audit the status change", async () => {
    expect((await activate(req(`/api/offers/games/${GAME}/definitions/streak-bonus/activate`, sam, { method: "POST" }), ofOffer())).status).toBe(403);
    const activated = await answer(await activate(req(`/api/offers/games/${GAME}/definitions/streak-bonus/activate`, lina, { method: "POST", ifMatch: await etagOf() }), ofOffer()));
    expect(activated).toMatchObject({ status: 200, body: { definition: { status: "active", version: 3 }, job: { reason: "activated" } } });

    let latest: { status: string; playersTotal: number | null; playersEvaluated: number; activations: number } | undefined;
    for (let i = 0; i < 100 && latest?.status !== "done"; i++) {
      latest = (await answer(await jobs(req(`/api/offers/games/${GAME}/definitions/streak-bonus/jobs`, lina), ofOffer()))).body.jobs[0];
      if (latest?.status !== "done") await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(latest).toMatchObject({ status: "done", playersTotal: 3, playersEvaluated: 3, activations: 1 });

    const bram = await answer(await preview(req(`/api/offers/games/${GAME}/definitions/streak-bonus/preview`, lina, { json: { playerId: "demo-player-2" } }), ofOffer()));
    expect(bram.body).toMatchObject({ wouldSurface: false, failed: "audience", checks: expect.arrayContaining([{ check: "audience", passed: false, detail: "loginStreak is 1, needs ≥ 3" }]) });
    expect(await answer(await preview(req(`/api/offers/games/${GAME}/definitions/streak-bonus/preview`, lina, { json: { playerId: "nobody" } }), ofOffer()))).toMatchObject({
      status: 404,
      body: { message: "player-not-found" },
    });

    const measured = await answer(await funnel(req(`/api/offers/games/${GAME}/definitions/streak-bonus/funnel?days=3`, lina), ofOffer()));
    // Aria's slots are full: the offer waits in her queue (assigned, not surfaced).
    expect(measured.body).toMatchObject({ days: 3, total: { assigned: 1, surfaced: 0, claimed: 0, conversion: null } });
    expect(measured.body.byDay).toHaveLength(3);

    const [entry] = (await listAudit(portal.db, { action: "offer-definition.activate" })).entries;
    expect(entry).toMatchObject({ before: { status: "draft", version: 2 }, after: { status: "active", version: 3, job: { reason: "activated" } } });
  });

  it("pause, archive (activation then refused), restore to draft, each on the current ETag; unknown offers and games say so", async () => {
    const url = (action: string) => `/api/offers/games/${GAME}/definitions/streak-bonus/${action}`;
    expect(await answer(await pause(req(url("pause"), lina, { method: "POST" }), ofOffer()))).toMatchObject({ status: 428, body: { message: "precondition-required" } });
    const beforePause = await etagOf();
    expect((await answer(await pause(req(url("pause"), lina, { method: "POST", ifMatch: beforePause }), ofOffer()))).body.definition.status).toBe("paused");
    // An archive sent on what the person saw before the pause: refused, and the offer stays paused.
    expect(await answer(await archive(req(url("archive"), lina, { method: "POST", ifMatch: beforePause }), ofOffer()))).toMatchObject({ status: 412, body: { message: "precondition-failed", etag: await etagOf() } });
    expect((await answer(await archive(req(url("archive"), lina, { method: "POST", ifMatch: await etagOf() }), ofOffer()))).body.definition.status).toBe("archived");
    expect(await answer(await activate(req(url("activate"), lina, { method: "POST", ifMatch: await etagOf() }), ofOffer()))).toMatchObject({ status: 409, body: { message: "definition-archived" } });
    expect((await answer(await restore(req(url("restore"), lina, { method: "POST", ifMatch: await etagOf() }), ofOffer()))).body.definition.status).toBe("draft");
    const actions = (await listAudit(portal.db, { action: "offer-definition" })).entries.map((e) => e.action);
    expect(actions.slice(0, 3)).toEqual(["offer-definition.restore", "offer-definition.archive", "offer-definition.pause"]);

    expect(await answer(await definition.GET(req(`/api/offers/games/${GAME}/definitions/missing`, lina), ofOffer("missing")))).toMatchObject({ status: 404, body: { message: "offer-not-found" } });
    expect(await answer(await definitions.GET(req("/api/offers/games/nope/definitions", lina), params({ gameId: "nope" })))).toMatchObject({ status: 404, body: { message: "game-not-found" } });
  });

  it("two people save the same offer at once: exactly one change is made, the other is told with the winner's ETag", async () => {
    const url = `/api/offers/games/${GAME}/definitions/streak-bonus`;
    const etag = await etagOf();
    const [alice, bob] = await Promise.all(
      [60, 70].map(async (amount) => answer(await definition.PUT(req(url, lina, { method: "PUT", json: { ...draftBody, rewards: [{ ...draftBody.rewards[0], amount }] }, ifMatch: etag }), ofOffer()))),
    );
    expect([alice!.status, bob!.status].sort()).toEqual([200, 412]);
    const [won, lost] = alice!.status === 200 ? [alice!, bob!] : [bob!, alice!];
    expect(lost.body).toEqual({ message: "precondition-failed", detail: expect.any(String), etag: won.body.definition.etag });
    expect((await answer(await definition.GET(req(url, lina), ofOffer()))).body.definition.rewards[0].amount).toBe(won.body.definition.rewards[0].amount);
  });
});

describe("the game environments", () => {
  it("reach the test environment with environment=test: its own definitions and players, audited as test", async () => {
    const testDraft = { ...draft, offerId: "test-only", name: "Only in test" };
    const created = await answer(await definitions.POST(req(`/api/offers/games/${GAME}/definitions?environment=test`, lina, { json: testDraft }), ofGame));
    expect(created.status).toBe(201);
    const inTest = await answer(await definitions.GET(req(`/api/offers/games/${GAME}/definitions?environment=test`, lina), ofGame));
    const inLive = await answer(await definitions.GET(req(`/api/offers/games/${GAME}/definitions`, lina), ofGame));
    expect(inTest.body.definitions.map((d: { offerId: string }) => d.offerId)).toContain("test-only");
    expect(inLive.body.definitions.map((d: { offerId: string }) => d.offerId)).not.toContain("test-only");
    // The demo players live in live only.
    const testPlayers = await answer(await players(req(`/api/offers/games/${GAME}/players?q=demo&environment=test`, lina), ofGame));
    expect(testPlayers.body.players).toEqual([]);
    const audit = await listAudit(await portal.services.db(), { limit: 5 });
    expect(audit.entries.find((e) => e.target.startsWith(`${GAME}/test-only`))).toMatchObject({ target: `${GAME}/test-only (test)`, summary: expect.stringMatching(/^\[test environment\] created offer test-only/) });
    const bad = await answer(await definitions.GET(req(`/api/offers/games/${GAME}/definitions?environment=prod`, lina), ofGame));
    expect(bad).toMatchObject({ status: 400, body: { message: "invalid-request", issues: [{ path: ["environment"] }] } });
  });
});
