/**
 * The engine without a server: what a claim writes (ledger, history, sequence ids, events after
 * commit), that a refused claim writes nothing, and that claims racing on one player keep the slot
 * rules and gap-free sequence ids. On PostgreSQL the races run on a pool of real connections.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { offerEvents, offerInstances, players, rewardLedger } from "./db/schema";
import { OffersEngine, type OfferEvent } from "./engine";
import { GameDirectory } from "./games";
import type { Offer } from "./contract";
import { SecretBox } from "./secret-box";

const GAME = "engine-game";
const reward = { kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 5 };

describe.each(testDatabaseTargets())("offer engine on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;
  let engine: OffersEngine;
  const published: OfferEvent[] = [];

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
    await new GameDirectory(database.db, new SecretBox(randomBytes(32).toString("hex"))).createGame({ gameId: GAME, name: "Engine game", maxOfferSlots: 3 });
    engine = new OffersEngine({ db: database.db });
    engine.onOfferEvent((event) => published.push(event));
    for (let i = 1; i <= 7; i++) {
      // No conditions: claimable as soon as viewed. Higher number, higher priority in the queue.
      await engine.upsertDefinition(GAME, `o${i}`, { name: `Offer ${i}`, description: "", rewards: [{ ...reward, amount: i }], realTime: false, durationSeconds: 3_600, priority: i });
    }
  });
  afterAll(async () => database?.close());

  const historyOf = (playerId: string) =>
    database.db.select().from(offerEvents).where(and(eq(offerEvents.gameId, GAME), eq(offerEvents.playerId, playerId))).orderBy(asc(offerEvents.seq));
  const instancesOf = (playerId: string) =>
    database.db.select().from(offerInstances).where(and(eq(offerInstances.gameId, GAME), eq(offerInstances.playerId, playerId)));
  const storedSeq = async (playerId: string) =>
    (await database.db.select({ seq: players.eventSeq }).from(players).where(and(eq(players.gameId, GAME), eq(players.playerId, playerId))))[0]?.seq;

  it("a claim grants once, records the transition with the next sequence id and tells listeners after commit", async () => {
    const playerId = "claimer";
    const offer = await engine.assignOffer(GAME, playerId, "o2");
    await engine.fetchCampaigns(GAME, playerId, { viewing: true, includeQueued: false });
    const before = (await historyOf(playerId)).length;
    published.length = 0;

    const rewards = await engine.claim({ gameId: GAME, playerId, kind: "offer", instanceId: offer.instanceId });

    expect(rewards).toEqual([{ ...reward, amount: 2 }]);
    const history = await historyOf(playerId);
    expect(history).toHaveLength(before + 1);
    const last = history.at(-1)!;
    expect(last).toMatchObject({ seq: before + 1, instanceId: offer.instanceId, type: "claimed", fromStatus: "claimable", toStatus: "claimed", cause: "claim" });
    expect(await storedSeq(playerId)).toBe(before + 1);
    const [instance] = (await instancesOf(playerId)).filter((row) => row.instanceId === offer.instanceId);
    expect(instance).toMatchObject({ status: "claimed" });
    expect(instance!.claimedAt).toBeInstanceOf(Date);
    const ledger = await database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, offer.instanceId));
    expect(ledger).toMatchObject([{ gameId: GAME, playerId, sourceKind: "offer", rewards: [{ ...reward, amount: 2 }] }]);
    expect(published).toHaveLength(1);
    expect(published[0]).toMatchObject({ seq: before + 1, type: "claimed", toStatus: "claimed", cause: "claim", instanceId: offer.instanceId });
    expect(published[0]!.offer).toMatchObject({ instanceId: offer.instanceId, status: "claimed", rewards: [{ ...reward, amount: 2 }], name: "Offer 2" });
    expect(published[0]!.offer.createdAt).toBe(offer.createdAt);
  });

  it("a refused claim writes nothing: not claimable, unknown, or another player's offer", async () => {
    const playerId = "refused";
    const surfaced = await engine.assignOffer(GAME, playerId, "o1"); // surfaced, not viewed: not claimable
    const seq = await storedSeq(playerId);
    const history = (await historyOf(playerId)).length;
    published.length = 0;

    await expect(engine.claim({ gameId: GAME, playerId, kind: "offer", instanceId: surfaced.instanceId })).rejects.toMatchObject({ code: "offer-not-claimable" });
    await expect(engine.claim({ gameId: GAME, playerId, kind: "offer", instanceId: "no-such-instance" })).rejects.toMatchObject({ code: "offer-not-found" });
    await expect(engine.claim({ gameId: GAME, playerId: "someone-else", kind: "offer", instanceId: surfaced.instanceId })).rejects.toMatchObject({ code: "offer-not-found" });

    expect(await storedSeq(playerId)).toBe(seq);
    expect(await historyOf(playerId)).toHaveLength(history);
    expect(await database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, surfaced.instanceId))).toHaveLength(0);
    expect((await instancesOf(playerId)).find((row) => row.instanceId === surfaced.instanceId)).toMatchObject({ status: "surfaced" });
    expect(published).toHaveLength(0);
  });

  it("claims racing on one player free slots that the queue fills, with gap-free sequence ids", async () => {
    for (let round = 0; round < 4; round++) {
      const playerId = `racer-${round}`;
      // Three held slots (claimable once viewed), three queued behind them.
      const held: Offer[] = [];
      for (const offerId of ["o1", "o2", "o3"]) held.push(await engine.assignOffer(GAME, playerId, offerId));
      await engine.fetchCampaigns(GAME, playerId, { viewing: true, includeQueued: false });
      for (const offerId of ["o4", "o5", "o6"]) expect((await engine.assignOffer(GAME, playerId, offerId)).status).toBe("inQueue");

      // The three claims at once, and a seventh assignment racing with them.
      const [claims, assigned] = await Promise.all([
        Promise.all(held.map((offer) => engine.claim({ gameId: GAME, playerId, kind: "offer", instanceId: offer.instanceId }))),
        engine.assignOffer(GAME, playerId, "o7"),
      ]);

      expect(claims.map((rewards) => rewards[0]!.amount).sort()).toEqual([1, 2, 3]);
      const rows = await instancesOf(playerId);
      const statusOf = (offerId: string) => rows.find((row) => row.offerId === offerId)?.status;
      expect(["o1", "o2", "o3"].map(statusOf)).toEqual(["claimed", "claimed", "claimed"]);
      // Four offers for three slots: the slots are full and one waits, the lowest priority (o4), or
      // o7 when it was assigned after every promotion.
      expect(rows.filter((row) => ["surfaced", "viewed", "claimable"].includes(row.status))).toHaveLength(3);
      const waiting = rows.filter((row) => row.status === "inQueue").map((row) => row.offerId);
      expect(waiting).toHaveLength(1);
      if (waiting[0] !== "o4") expect([waiting[0], assigned.status]).toEqual(["o7", "inQueue"]);

      const history = await historyOf(playerId);
      expect(history.map((event) => event.seq)).toEqual(history.map((_, i) => i + 1));
      expect(await storedSeq(playerId)).toBe(history.length);
      expect(history.filter((event) => event.type === "claimed")).toHaveLength(3);
      const ledger = await database.db.select().from(rewardLedger).where(and(eq(rewardLedger.gameId, GAME), eq(rewardLedger.playerId, playerId)));
      expect(ledger).toHaveLength(3);
    }
  });

  // Deterministic on PostgreSQL: another transaction holds the player's lock while the claim's
  // statement starts, and queues an offer before letting it go. The claim's own snapshot cannot
  // see that offer; the claim must still fill the slot it frees.
  it.skipIf(target === "pglite")("a claim that waited for the player's lock fills its freed slot with an offer queued meanwhile", async () => {
    const playerId = "waiter";
    const held: Offer[] = [];
    for (const offerId of ["o1", "o2", "o3"]) held.push(await engine.assignOffer(GAME, playerId, offerId));
    await engine.fetchCampaigns(GAME, playerId, { viewing: true, includeQueued: false });
    let claim: Promise<unknown> | undefined;
    await database.db.transaction(async (tx) => {
      const [player] = await tx.select().from(players).where(and(eq(players.gameId, GAME), eq(players.playerId, playerId))).for("update");
      claim = engine.claim({ gameId: GAME, playerId, kind: "offer", instanceId: held[0]!.instanceId });
      // Wait until the claim's statement is blocked on this lock.
      for (let i = 0; i < 200; i++) {
        const waiting = await database.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if ((waiting as unknown as { rows: Array<{ n: number }> }).rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // What an assignment does when the slots are full: a queued instance, its event, the next sequence id.
      const now = new Date();
      const [queued] = await tx
        .insert(offerInstances)
        .values({
          instanceId: `queued-${randomBytes(4).toString("hex")}`, gameId: GAME, playerId, offerId: "o7", status: "inQueue", name: "Offer 7", description: "",
          rewards: [reward], realTime: false, durationSeconds: 3_600, priority: 7, createdAt: now, expiresAt: new Date(now.getTime() + 3_600_000), updatedAt: now,
        })
        .returning();
      await tx.insert(offerEvents).values({ gameId: GAME, playerId, seq: player!.eventSeq + 1, instanceId: queued!.instanceId, type: "queued", toStatus: "inQueue", cause: "assign", at: now });
      await tx.update(players).set({ eventSeq: player!.eventSeq + 1 }).where(and(eq(players.gameId, GAME), eq(players.playerId, playerId)));
    });
    await claim;

    const rows = await instancesOf(playerId);
    expect(rows.find((row) => row.offerId === "o7")).toMatchObject({ status: "surfaced" });
    expect(rows.filter((row) => ["surfaced", "viewed", "claimable"].includes(row.status))).toHaveLength(3);
    const history = await historyOf(playerId);
    expect(history.map((event) => event.seq)).toEqual(history.map((_, i) => i + 1));
    expect(history.slice(-3).map((event) => [event.type, event.cause])).toEqual([["queued", "assign"], ["claimed", "claim"], ["surfaced", "slot-freed"]]);
  });
});
