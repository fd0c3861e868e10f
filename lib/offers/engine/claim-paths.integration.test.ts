/**
 * The two paths of an offer claim, the one-statement hot path (claimOnce) and the transactional
 * path (claimOfferIn inside a player's transaction), on equal fixtures: they must write the same
 * rows. Ids differ (instance ids are random, ledger and event ids are serial); everything else,
 * timestamps included (one manual clock), must be equal.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { ManualClock } from "../clock";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { idempotencyKeys, offerEvents, offerInstances, players, rewardEvents, rewardLedger } from "../db/schema";
import { GameDirectory } from "../games";
import { SecretBox } from "../secret-box";
import { claimFingerprint, claimOfferIn } from "./claims";
import { OffersEngine } from "./engine";
import type { ClaimIdempotency, OfferEvent } from "./types";

const GAME = "claim-paths-game";
const reward = { kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 5 };

describe.each(contractDatabaseTargets())("the two claim paths on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;
  let engine: OffersEngine;
  const clock = new ManualClock();
  const published: OfferEvent[] = [];

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
    // One slot: the claim frees it and the queued offer is promoted, so the settle after a claim is compared too.
    await new GameDirectory(database.db, new SecretBox(randomBytes(32).toString("hex"))).createGame({ gameId: GAME, name: "Claim paths", maxOfferSlots: 1 });
    engine = new OffersEngine({ db: database.db, clock });
    engine.onOfferEvent((event) => published.push(event));
    // Two variants weighted so that every player draws `main`: the outbox row carries the variant.
    await engine.upsertDefinition(GAME, "first", {
      name: "First",
      description: "",
      rewards: [reward],
      variants: [
        { variantId: "main", weight: 1_000_000, rewards: [reward] },
        { variantId: "rare", weight: 0.000001, rewards: [{ ...reward, amount: 500 }] },
      ],
      realTime: false,
      durationSeconds: 3_600,
      priority: 1,
    });
    await engine.upsertDefinition(GAME, "queued", { name: "Queued", description: "", rewards: [{ ...reward, amount: 7 }], realTime: true, durationSeconds: 600, priority: 2 });
  });
  afterAll(async () => database?.close());

  /** A player with `first` claimable and `queued` waiting; answers the claimable instance id. */
  async function fixture(playerId: string): Promise<string> {
    await engine.pushSnapshot(GAME, { playerId, username: "same", currencies: { gold: { balance: 3, in: 3, out: 0 } } });
    const first = await engine.assignOffer(GAME, playerId, "first");
    await engine.assignOffer(GAME, playerId, "queued");
    await engine.fetchCampaigns(GAME, playerId, { viewing: true, includeQueued: false });
    return first.instanceId;
  }

  /** Everything the claim wrote about a player, with instance ids replaced by offer ids and row ids dropped. */
  async function writtenRows(playerId: string) {
    const instances = await database.db.select().from(offerInstances).where(and(eq(offerInstances.gameId, GAME), eq(offerInstances.playerId, playerId))).orderBy(asc(offerInstances.offerId));
    const offerOf = new Map(instances.map((row) => [row.instanceId, row.offerId]));
    const ledger = await database.db.select().from(rewardLedger).where(and(eq(rewardLedger.gameId, GAME), eq(rewardLedger.playerId, playerId))).orderBy(asc(rewardLedger.id));
    const events = await database.db.select().from(offerEvents).where(and(eq(offerEvents.gameId, GAME), eq(offerEvents.playerId, playerId))).orderBy(asc(offerEvents.seq));
    const keys = await database.db.select().from(idempotencyKeys).where(and(eq(idempotencyKeys.gameId, GAME), eq(idempotencyKeys.playerId, playerId)));
    const outbox = await database.db.select().from(rewardEvents).where(and(eq(rewardEvents.gameId, GAME), eq(rewardEvents.playerId, playerId))).orderBy(asc(rewardEvents.id));
    const [player] = await database.db.select().from(players).where(and(eq(players.gameId, GAME), eq(players.playerId, playerId)));
    return {
      instances: instances.map(({ instanceId: _i, playerId: _p, ...row }) => row),
      ledger: ledger.map(({ id: _id, playerId: _p, sourceId, ...row }) => ({ ...row, source: offerOf.get(sourceId) })),
      events: events.map(({ id: _id, playerId: _p, instanceId, ...row }) => ({ ...row, offer: offerOf.get(instanceId) })),
      // The event id and the transaction id are the database's (unique per row).
      outbox: outbox.map(({ id: _id, eventId: _e, xid: _x, playerId: _p, sourceId, ...row }) => ({ ...row, instanceOf: offerOf.get(sourceId) })),
      keys: keys.map(({ playerId: _p, fingerprint, ...row }) => ({ ...row, fingerprintMatches: fingerprint === claimFingerprint("offer", [...offerOf].find(([, o]) => o === "first")![0]) })),
      player: player && (({ playerId: _p, ...row }) => row)(player),
    };
  }

  const published_ = (playerId: string) =>
    published.filter((e) => e.playerId === playerId).map(({ playerId: _p, instanceId: _i, offer: { instanceId: _oi, playerId: _op, ...offer }, ...event }) => ({ ...event, offer }));

  for (const idempotency of [undefined, { key: "retry-1", endpoint: "client" } satisfies ClaimIdempotency]) {
    it(`write identical rows ${idempotency ? "with" : "without"} an Idempotency-Key`, async () => {
      const suffix = idempotency ? "keyed" : "plain";
      const hot = `hot-${suffix}`;
      const composed = `composed-${suffix}`;
      const hotInstance = await fixture(hot);
      const composedInstance = await fixture(composed);

      const hotAnswer = await engine.claimOnce({ gameId: GAME, playerId: hot, kind: "offer", instanceId: hotInstance, idempotency, via: "client" });
      const composedAnswer = await engine.transaction(GAME, composed, (tx) => claimOfferIn(engine, tx, composedInstance, "client", idempotency));

      expect(composedAnswer).toEqual(hotAnswer);
      const hotRows = await writtenRows(hot);
      expect(hotRows.ledger).toHaveLength(1);
      expect(hotRows.outbox).toEqual([
        { type: "reward.granted", gameId: GAME, sourceKind: "offer", offerId: "first", variantId: "main", rewards: [reward], source: "client", actor: null, approvedBy: null, reason: null, occurredAt: clock.now(), instanceOf: "first" },
      ]);
      expect(hotRows.events.map((e) => e.type)).toContain("claimed");
      expect(hotRows.keys).toHaveLength(idempotency ? 1 : 0);
      expect(await writtenRows(composed)).toEqual(hotRows);
      expect(published_(composed)).toEqual(published_(hot));
    });
  }
});
