/**
 * Offers that surface by themselves, on PGlite and PostgreSQL: every targeting field, schedule
 * edges, limits and cooldowns, rollout and variant stability, the triggers (snapshot push, campaigns
 * fetch, surfacing jobs), the history they leave (cause `rule` and the rule's version), and
 * exactly-once under concurrency (parallel pushes, two job runners, a runner that dies mid-job).
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { ManualClock } from "../clock";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { offerEvents, offerInstances, surfacingJobs } from "../db/schema";
import { GameDirectory } from "../games";
import type { OfferDefinitionDraft } from "../contract";
import { SecretBox } from "../secret-box";
import { inRollout, pickVariant } from "../targeting/rollout";
import { OffersEngine } from "./engine";
import { SurfacingJobRunner } from "./surfacing-jobs";
import type { OfferEvent } from "./types";

const reward = { kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 5 };
const base = (extra: Partial<OfferDefinitionDraft> = {}): OfferDefinitionDraft => ({
  name: "Streak bonus",
  rewards: [reward],
  durationSeconds: 3_600,
  realTime: true,
  audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }] },
  ...extra,
});

describe.each(testDatabaseTargets())("surfacing on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;
  let engine: OffersEngine;
  const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  const published: OfferEvent[] = [];
  let gameSeq = 0;

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
    engine = new OffersEngine({ db: database.db, clock });
    engine.onOfferEvent((event) => published.push(event));
  });
  afterAll(async () => database?.close());

  /** A fresh game per test, so definitions of one test never target another's players. */
  async function newGame(maxOfferSlots = 3): Promise<string> {
    const gameId = `surf-${target}-${++gameSeq}`;
    await new GameDirectory(database.db, new SecretBox(randomBytes(32).toString("hex"))).createGame({ gameId, name: gameId, maxOfferSlots });
    return gameId;
  }

  const instancesOf = (gameId: string, playerId: string) =>
    database.db
      .select()
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.playerId, playerId)))
      .orderBy(asc(offerInstances.createdAt));
  const instancesOfOffer = (gameId: string, offerId: string) =>
    database.db.select().from(offerInstances).where(and(eq(offerInstances.gameId, gameId), eq(offerInstances.offerId, offerId)));

  it("a snapshot push that enters the audience surfaces the offer, recorded with cause rule and the rule's version, and published", async () => {
    const gameId = await newGame();
    const defined = await engine.upsertDefinition(gameId, "streak", base());
    expect(defined).toMatchObject({ status: "active", version: 1 });
    await engine.pushSnapshot(gameId, { playerId: "low", loginStreak: 1 });
    expect(await instancesOf(gameId, "low")).toHaveLength(0);

    published.length = 0;
    await engine.pushSnapshot(gameId, { playerId: "high", loginStreak: 5 });
    const [instance] = await instancesOf(gameId, "high");
    expect(instance).toMatchObject({ offerId: "streak", status: "surfaced", definitionVersion: 1, realTime: true });
    const events = await database.db.select().from(offerEvents).where(eq(offerEvents.instanceId, instance.instanceId));
    expect(events).toEqual([expect.objectContaining({ type: "surfaced", cause: "rule", ruleVersion: 1 })]);
    expect(published).toEqual([expect.objectContaining({ type: "surfaced", cause: "rule", playerId: "high" })]);

    // Pushing again changes nothing: it was given once (maxActivationsPerPlayer 1).
    await engine.pushSnapshot(gameId, { playerId: "high", loginStreak: 6 });
    expect(await instancesOf(gameId, "high")).toHaveLength(1);
  });

  it("a definition without an audience, or not active, is never assigned by itself", async () => {
    const gameId = await newGame();
    await engine.upsertDefinition(gameId, "explicit", base({ audience: null }));
    await engine.upsertDefinition(gameId, "drafted", base({ status: "draft" }));
    await engine.upsertDefinition(gameId, "paused", base({ status: "paused" }));
    await engine.pushSnapshot(gameId, { playerId: "p", loginStreak: 9 });
    await engine.fetchCampaigns(gameId, "p", { viewing: false, includeQueued: true });
    expect(await instancesOf(gameId, "p")).toHaveLength(0);
    // Explicit assignment still works for them, but not for an archived definition.
    await engine.assignOffer(gameId, "p", "explicit");
    await engine.changeDefinitionStatus(gameId, "drafted", "archived");
    await expect(engine.assignOffer(gameId, "p", "drafted")).rejects.toMatchObject({ code: "definition-archived" });
  });

  it("a campaigns fetch surfaces an offer the player matches (e.g. a definition activated after the last push)", async () => {
    const gameId = await newGame();
    await engine.pushSnapshot(gameId, { playerId: "p", loginStreak: 4 });
    await engine.upsertDefinition(gameId, "later", base({ status: "draft" }));
    await engine.changeDefinitionStatus(gameId, "later", "active");
    engine.invalidateTargeting(gameId);
    const view = await engine.fetchCampaigns(gameId, "p", { viewing: false, includeQueued: false });
    expect(view.offers.map((o) => [o.offerId, o.status])).toEqual([["later", "surfaced"]]);
    // A player the service has never seen is not an audience member: nothing is assigned.
    const unknown = await engine.fetchCampaigns(gameId, "stranger", { viewing: false, includeQueued: false });
    expect(unknown.offers).toEqual([]);
  });

  it("every audience field and op, against the pushed snapshot", async () => {
    const gameId = await newGame(10);
    const cases: Array<[string, OfferDefinitionDraft["audience"]]> = [
      ["days", { field: "daysInGame", op: "between", value: [10, 20] }],
      ["trust", { field: "trustScore", op: "lt", value: 50 }],
      ["name", { field: "username", op: "in", value: ["ann", "bob"] }],
      ["gems", { field: "currencies.gems.balance", op: "gt", value: 100 }],
      ["spent", { field: "currencies.gold.out", op: "gte", value: 1000 }],
      ["level", { field: "levels.castle.level", op: "eq", value: 7 }],
      ["no-gems", { not: { field: "currencies.gems.balance", op: "exists" } }],
      ["either", { any: [{ field: "loginStreak", op: "ne", value: 0 }, { field: "username", op: "eq", value: "zed" }] }],
    ];
    for (const [offerId, audience] of cases) await engine.upsertDefinition(gameId, offerId, base({ audience, realTime: false }));
    await engine.pushSnapshot(gameId, {
      playerId: "ann",
      username: "ann",
      daysInGame: 15,
      trustScore: 20,
      loginStreak: 0,
      currencies: { gems: { balance: 150, in: 150, out: 0 }, gold: { balance: 0, in: 1000, out: 1000 } },
      levels: { castle: { level: 7 } },
    });
    await engine.pushSnapshot(gameId, { playerId: "zed", username: "zed", daysInGame: 30, trustScore: 80, levels: { castle: { level: 6 } } });
    const offersOf = async (p: string) => (await instancesOf(gameId, p)).map((i) => i.offerId).sort();
    expect(await offersOf("ann")).toEqual(["days", "gems", "level", "name", "spent", "trust"]);
    expect(await offersOf("zed")).toEqual(["either", "no-gems"]);
  });

  it("the schedule's window: from startsAt (inclusive) until endsAt (exclusive)", async () => {
    const gameId = await newGame();
    const now = clock.now().getTime();
    await engine.upsertDefinition(gameId, "window", base({ schedule: { startsAt: new Date(now + 60_000).toISOString(), endsAt: new Date(now + 120_000).toISOString() } }));
    await engine.pushSnapshot(gameId, { playerId: "early", loginStreak: 3 });
    expect(await instancesOf(gameId, "early")).toHaveLength(0);
    try {
      clock.set(now + 60_000);
      engine.invalidateTargeting(gameId);
      await engine.pushSnapshot(gameId, { playerId: "at-start", loginStreak: 3 });
      expect(await instancesOf(gameId, "at-start")).toHaveLength(1);
      clock.set(now + 120_000);
      engine.invalidateTargeting(gameId);
      await engine.pushSnapshot(gameId, { playerId: "at-end", loginStreak: 3 });
      expect(await instancesOf(gameId, "at-end")).toHaveLength(0);
    } finally {
      clock.set(now);
    }
  });

  it("limits: activations per player, the cooldown after the previous one ended, and the game-wide claims", async () => {
    const gameId = await newGame();
    const now = clock.now().getTime();
    try {
      await engine.upsertDefinition(gameId, "repeat", base({ durationSeconds: 60, limits: { maxActivationsPerPlayer: 2, cooldownSeconds: 300 } }));
      await engine.pushSnapshot(gameId, { playerId: "p", loginStreak: 3 });
      const [first] = await instancesOf(gameId, "p");
      // The first one expires at +60 s; the cooldown holds until +360 s.
      clock.set(now + 61_000);
      engine.invalidateTargeting(gameId);
      await engine.pushSnapshot(gameId, { playerId: "p", loginStreak: 3 });
      expect((await instancesOf(gameId, "p")).map((i) => i.status)).toEqual(["expired"]);
      clock.set(now + 360_000);
      engine.invalidateTargeting(gameId);
      await engine.pushSnapshot(gameId, { playerId: "p", loginStreak: 3 });
      expect((await instancesOf(gameId, "p")).map((i) => i.status)).toEqual(["expired", "surfaced"]);
      expect(first.status).toBe("surfaced");
      clock.set(now + 1_000_000);
      engine.invalidateTargeting(gameId);
      await engine.pushSnapshot(gameId, { playerId: "p", loginStreak: 3 });
      expect(await instancesOf(gameId, "p")).toHaveLength(2); // at most two activations

      clock.set(now);
      engine.invalidateTargeting(gameId);
      await engine.upsertDefinition(gameId, "stock", base({ limits: { maxClaimsTotal: 2 } }));
      for (const p of ["s1", "s2", "s3"]) await engine.pushSnapshot(gameId, { playerId: p, loginStreak: 3 });
      expect((await instancesOfOffer(gameId, "stock")).map((i) => i.playerId).sort()).toEqual(["s1", "s2"]);
    } finally {
      clock.set(now);
      engine.invalidateTargeting(gameId);
    }
  });

  it("an offer past its deadline no longer holds a unit of the stock, before any sweep or read of its player has expired it", async () => {
    const gameId = await newGame();
    const now = clock.now().getTime();
    try {
      await engine.upsertDefinition(gameId, "flash", base({ durationSeconds: 60, limits: { maxClaimsTotal: 2 } }));
      for (const p of ["f1", "f2"]) await engine.pushSnapshot(gameId, { playerId: p, loginStreak: 3 });
      await engine.pushSnapshot(gameId, { playerId: "f3", loginStreak: 3 });
      expect((await instancesOfOffer(gameId, "flash")).map((i) => i.playerId).sort()).toEqual(["f1", "f2"]);
      expect(await engine.previewSurfacing(gameId, "flash", "f3")).toMatchObject({ wouldSurface: false, failed: "stock" });

      // f1's and f2's offers pass their deadline; no sweep runs and neither player reads, so both
      // are still stored as surfaced. They are expired all the same: the stock is free again.
      clock.set(now + 61_000);
      engine.invalidateTargeting(gameId);
      expect((await instancesOfOffer(gameId, "flash")).map((i) => i.status)).toEqual(["surfaced", "surfaced"]);
      expect(await engine.previewSurfacing(gameId, "flash", "f3")).toMatchObject({ wouldSurface: true, failed: null });
      await engine.pushSnapshot(gameId, { playerId: "f3", loginStreak: 3 });
      await engine.pushSnapshot(gameId, { playerId: "f4", loginStreak: 3 });
      await engine.pushSnapshot(gameId, { playerId: "f5", loginStreak: 3 });
      const given = await instancesOfOffer(gameId, "flash");
      expect(given.filter((i) => i.status === "surfaced" && i.expiresAt.getTime() > now + 61_000).map((i) => i.playerId).sort()).toEqual(["f3", "f4"]);
      expect(given).toHaveLength(4);
    } finally {
      clock.set(now);
      engine.invalidateTargeting(gameId);
    }
  });

  it("rollout and variants are deterministic per player: the same answer on every evaluation, recorded on the instance", async () => {
    const gameId = await newGame();
    const variants = [
      { variantId: "a", weight: 1, rewards: [{ ...reward, amount: 10 }] },
      { variantId: "b", weight: 3, rewards: [{ ...reward, amount: 20 }] },
    ];
    await engine.upsertDefinition(gameId, "half", base({ rollout: 50, variants, rewards: undefined }));
    const playerIds = Array.from({ length: 40 }, (_, i) => `r${i}`);
    for (const p of playerIds) await engine.pushSnapshot(gameId, { playerId: p, loginStreak: 3 });
    const given = await instancesOfOffer(gameId, "half");
    const inside = playerIds.filter((p) => inRollout(50, gameId, "half", p));
    expect(given.map((i) => i.playerId).sort()).toEqual(inside.sort());
    expect(inside.length).toBeGreaterThan(5);
    expect(inside.length).toBeLessThan(35);
    for (const instance of given) {
      const variant = pickVariant(variants, gameId, "half", instance.playerId);
      expect(instance.variantId).toBe(variant.variantId);
      expect(instance.rewards).toEqual(variant.rewards);
    }
    // The preview agrees with what was given.
    const outside = playerIds.find((p) => !inRollout(50, gameId, "half", p))!;
    const preview = await engine.previewSurfacing(gameId, "half", outside);
    expect(preview).toMatchObject({ wouldSurface: false, failed: "rollout" });
  });

  it("the preview names the failing check and says where an offer would go", async () => {
    const gameId = await newGame(1);
    await engine.upsertDefinition(gameId, "streak", base());
    await engine.upsertDefinition(gameId, "filler", base({ audience: null }));
    await engine.pushSnapshot(gameId, { playerId: "low", loginStreak: 1 });
    const low = await engine.previewSurfacing(gameId, "streak", "low");
    expect(low).toMatchObject({ wouldSurface: false, failed: "audience", as: null });
    expect(low.checks.find((c) => c.check === "audience")!.detail).toBe("loginStreak is 1, needs ≥ 3");
    await engine.assignOffer(gameId, "low", "filler");
    // Would match with a higher streak; the only slot is taken, so it would queue.
    await engine.upsertDefinition(gameId, "streak", base({ audience: { all: [{ field: "loginStreak", op: "gte", value: 1 }] }, status: "paused" }));
    expect(await engine.previewSurfacing(gameId, "streak", "low")).toMatchObject({ wouldSurface: false, failed: "status" });
    await engine.changeDefinitionStatus(gameId, "streak", "active");
    // The job (not run here) has not given it yet, so the preview says it would queue.
    expect(await engine.previewSurfacing(gameId, "streak", "low")).toMatchObject({ wouldSurface: true, as: "inQueue", failed: null });
    await expect(engine.previewSurfacing(gameId, "streak", "nobody")).rejects.toMatchObject({ code: "player-not-found" });
  });

  it("20 parallel snapshot pushes for one player make one instance", async () => {
    const gameId = await newGame();
    await engine.upsertDefinition(gameId, "once", base());
    await Promise.all(Array.from({ length: 20 }, (_, i) => engine.pushSnapshot(gameId, { playerId: "racer", loginStreak: 3 + i })));
    expect(await instancesOfOffer(gameId, "once")).toHaveLength(1);
  });

  it("a limited stock holds when many players push at once, and a cooldown when one player pushes many times at once", async () => {
    const gameId = await newGame();
    await engine.upsertDefinition(gameId, "scarce", base({ limits: { maxClaimsTotal: 5 } }));
    await Promise.all(Array.from({ length: 30 }, (_, i) => engine.pushSnapshot(gameId, { playerId: `rush-${i}`, loginStreak: 3 })));
    expect(await instancesOfOffer(gameId, "scarce")).toHaveLength(5);

    await engine.upsertDefinition(gameId, "cool", base({ durationSeconds: 1, limits: { maxActivationsPerPlayer: 10, cooldownSeconds: 3_600 } }));
    const now = clock.now().getTime();
    try {
      await engine.pushSnapshot(gameId, { playerId: "cooler", loginStreak: 3 });
      clock.set(now + 2_000); // the first one is overdue: it expires on the next settle, and the cooldown starts from its deadline
      engine.invalidateTargeting(gameId);
      await Promise.all(Array.from({ length: 20 }, () => engine.pushSnapshot(gameId, { playerId: "cooler", loginStreak: 3 })));
      expect((await instancesOf(gameId, "cooler")).filter((i) => i.offerId === "cool").map((i) => i.status)).toEqual(["expired"]);
    } finally {
      clock.set(now);
      engine.invalidateTargeting(gameId);
    }
  });

  it("activation runs a job over every player with a snapshot: matches are given once, progress is recorded", async () => {
    const gameId = await newGame();
    for (let i = 0; i < 30; i++) await engine.pushSnapshot(gameId, { playerId: `j${String(i).padStart(2, "0")}`, loginStreak: i % 3 });
    const change = await engine.saveDefinition(gameId, "job", { ...parse(base({ audience: { all: [{ field: "loginStreak", op: "eq", value: 2 }] } })), status: "draft" });
    expect(change.job).toBeNull();
    const activated = await engine.changeDefinitionStatus(gameId, "job", "active");
    expect(activated.job).toMatchObject({ status: "queued", reason: "activated", definitionVersion: 2 });

    const runner = new SurfacingJobRunner(engine, { pageSize: 7, workerId: "one" });
    expect(await drain(runner)).toBeGreaterThanOrEqual(1);
    const [job] = await engine.surfacingJobs(gameId, "job");
    expect(job).toMatchObject({ status: "done", playersTotal: 30, playersEvaluated: 30, activations: 10 });
    expect(await instancesOfOffer(gameId, "job")).toHaveLength(10);
    // A second run finds nothing to do.
    expect(await runner.runOnce()).toBe(false);
  });

  // PGlite runs one transaction at a time, so there a pause cannot commit while a batch is open.
  it.skipIf(target === "pglite")("a pause committed while a batch is open wins: no activation is committed after the pause is answered", async () => {
    const gameId = await newGame();
    for (let i = 0; i < 60; i++) await engine.pushSnapshot(gameId, { playerId: `z${String(i).padStart(2, "0")}`, loginStreak: 3 });
    await engine.saveDefinition(gameId, "paused-mid-job", { ...parse(base()), status: "draft" });
    await engine.changeDefinitionStatus(gameId, "paused-mid-job", "active");
    const given = async () => (await instancesOfOffer(gameId, "paused-mid-job")).length;

    let pause: Promise<number> | undefined;
    const runner = new SurfacingJobRunner(engine, {
      pageSize: 500,
      batchSize: 20,
      concurrency: 1,
      workerId: "paused",
      // The first batch has read the definition as active and given its players the offer; before it
      // commits, live ops pauses the definition on another connection.
      beforeBatchCommit: async () => {
        if (pause) return;
        pause = engine.changeDefinitionStatus(gameId, "paused-mid-job", "paused").then(given);
        // Go on once the pause has been answered, or is waiting for this batch (it may not overtake it).
        for (;;) {
          const settled = await Promise.race([pause.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 20))]);
          if (settled || (await pauseIsWaiting())) return;
        }
      },
    });
    await drain(runner);
    expect(pause).toBeDefined();
    // What was committed when the pause was answered is all there is: nothing came after it.
    const givenWhenPaused = await pause!;
    expect(await given()).toBe(givenWhenPaused);
    expect((await engine.definitionRow(gameId, "paused-mid-job"))!.status).toBe("paused");
  });

  /** Whether a transaction on this test's database waits for a row lock. */
  async function pauseIsWaiting(): Promise<boolean> {
    const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`));
    return Number(row?.n ?? 0) > 0;
  }

  it("two runners on one job, and a runner that dies mid-job, give nothing twice", async () => {
    const gameId = await newGame();
    for (let i = 0; i < 40; i++) await engine.pushSnapshot(gameId, { playerId: `k${String(i).padStart(2, "0")}`, loginStreak: 3 });
    await engine.saveDefinition(gameId, "shared", parse(base()));
    // Both runners work at once until no job is left: each job is run by one of them.
    const [a, b] = [new SurfacingJobRunner(engine, { pageSize: 5, workerId: "a" }), new SurfacingJobRunner(engine, { pageSize: 5, workerId: "b" })];
    await Promise.all([drain(a), drain(b)]);
    expect(await instancesOfOffer(gameId, "shared")).toHaveLength(40);
    const [shared] = await engine.surfacingJobs(gameId, "shared");
    expect(shared).toMatchObject({ status: "done", attempts: 1, playersEvaluated: 40, activations: 40 });

    // A runner that stops after two pages (its process died): its lease runs out, another resumes.
    await engine.upsertDefinition(gameId, "resumed", base());
    const dying = new SurfacingJobRunner(engine, { pageSize: 5, workerId: "dying", leaseMs: 30_000, maxPages: 2 });
    expect(await dying.runOnce()).toBe(true);
    const [half] = await database.db.select().from(surfacingJobs).where(and(eq(surfacingJobs.gameId, gameId), eq(surfacingJobs.offerId, "resumed")));
    expect(half).toMatchObject({ status: "running", lockedBy: "dying", playersEvaluated: 10 });
    const heir = new SurfacingJobRunner(engine, { pageSize: 5, workerId: "heir" });
    expect(await heir.runOnce()).toBe(false); // the lease still holds
    const now = clock.now().getTime();
    try {
      clock.set(now + 31_000);
      expect(await heir.runOnce()).toBe(true);
    } finally {
      clock.set(now);
    }
    const [done] = await database.db.select().from(surfacingJobs).where(and(eq(surfacingJobs.gameId, gameId), eq(surfacingJobs.offerId, "resumed")));
    expect(done).toMatchObject({ status: "done", playersEvaluated: 40, attempts: 2 });
    expect(await instancesOfOffer(gameId, "resumed")).toHaveLength(40);
    expect(new Set((await instancesOfOffer(gameId, "resumed")).map((i) => i.playerId)).size).toBe(40);
  });
});

/** Runs jobs until none is left (earlier tests' games queue jobs too); answers how many ran. */
async function drain(runner: SurfacingJobRunner): Promise<number> {
  let n = 0;
  while (await runner.runOnce()) n += 1;
  return n;
}

function parse(draft: OfferDefinitionDraft) {
  // The engine's save takes parsed input, as the admin API hands it.
  return { description: "", realTime: false, priority: 0, rollout: 100, ...draft } as Parameters<OffersEngine["saveDefinition"]>[2];
}
