import { randomBytes, randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { offerInstances, players } from "../db/schema";
import { GameDirectory } from "../games";
import { SecretBox } from "../secret-box";
import { preparedCampaignReads, READ_BATCH } from "./campaigns";

describe.each(testDatabaseTargets())("the campaigns read on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;
  const gameId = `reads-${target}`;
  const otherGameId = `reads-other-${target}`;

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
    const directory = new GameDirectory(database.db, new SecretBox(randomBytes(32).toString("hex")));
    await directory.createGame({ gameId, name: gameId });
    await directory.createGame({ gameId: otherGameId, name: otherGameId });
  });
  afterAll(async () => database?.close());

  const instance = (playerId: string, extra: Partial<typeof offerInstances.$inferInsert>): typeof offerInstances.$inferInsert => ({
    instanceId: randomUUID(),
    gameId,
    playerId,
    offerId: "offer",
    status: "surfaced",
    name: "Épée 🎁 \"quoted\" \\ back",
    description: "line one\nline two",
    image: null,
    rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 12.5 }],
    completionConditions: null,
    realTime: true,
    durationSeconds: 3_600,
    priority: -2,
    createdAt: new Date(),
    expiresAt: new Date(),
    updatedAt: new Date(),
    ...extra,
  });

  /** The rows as a column-wise select gives them: what the one statement must match. */
  async function columnWise(playerId: string, game = gameId) {
    const db = database.db;
    const [player] = await db.select().from(players).where(and(eq(players.gameId, game), eq(players.playerId, playerId)));
    const offers = await db
      .select()
      .from(offerInstances)
      .where(and(eq(offerInstances.gameId, game), eq(offerInstances.playerId, playerId)))
      .orderBy(asc(offerInstances.createdAt), asc(offerInstances.instanceId));
    return { player: player ?? null, offers };
  }

  it("answers the player's row and their offers in assignment order, every column as a column-wise select decodes it", async () => {
    const db = database.db;
    await db.insert(players).values({
      gameId,
      playerId: "p1",
      username: "Zoë",
      daysInGame: 12.75,
      loginStreak: 3,
      trustScore: -0.5,
      currencies: { gold: { balance: 1e21, in: 0.1, out: 2 }, "gems-ü": { balance: 0, in: 0, out: 0 } },
      levels: { main: { level: 7 } },
      eventSeq: 2 ** 40,
    });
    // Microseconds in the timestamps: decoded to the millisecond, as the driver does.
    await db.execute(sql`update ${players} set updated_at = '2026-06-01T12:00:00.123456Z' where ${players.playerId} = 'p1'`);
    const later = new Date("2026-06-02T00:00:00.000Z");
    const earlier = new Date("2026-06-01T00:00:00.000Z");
    await db.insert(offerInstances).values([
      instance("p1", { createdAt: later, status: "claimed", claimedAt: later, surfacedAt: earlier, image: "https://example.com/a.png", variantId: "b", definitionVersion: 4 }),
      instance("p1", {
        createdAt: earlier,
        status: "viewed",
        completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 100 }],
        completionTrackers: { spendCurrency: 40 },
        trackerBaseline: { "spendCurrency:gold": 7 },
      }),
      instance("p1", { createdAt: earlier, status: "inQueue" }),
      instance("someone-else", { createdAt: earlier }),
    ]);
    await db.execute(sql`update ${offerInstances} set surfaced_at = '2026-06-01T00:00:00.999999+02:00' where ${offerInstances.status} = 'viewed'`);

    const read = await preparedCampaignReads(db).playerAndOffers(gameId, "p1");
    const expected = await columnWise("p1");
    expect(read).toEqual(expected);
    expect(read!.offers.map((offer) => offer.status)).toEqual(expected.offers.map((offer) => offer.status));
    expect(read!.offers).toHaveLength(3);
    expect(read!.player!.updatedAt).toEqual(new Date("2026-06-01T12:00:00.123Z"));
    expect(read!.offers.find((offer) => offer.status === "viewed")!.surfacedAt).toEqual(new Date("2026-05-31T22:00:00.999Z"));
    expect(read!.player!.eventSeq).toBe(2 ** 40);
  });

  it("answers no player and no offers for a player it does not know, and nothing for an unknown game", async () => {
    const reads = preparedCampaignReads(database.db);
    expect(await reads.playerAndOffers(gameId, "nobody")).toEqual({ player: null, offers: [] });
    await database.db.insert(offerInstances).values(instance("offers-only", {}));
    const read = await reads.playerAndOffers(gameId, "offers-only");
    expect(read).toEqual(await columnWise("offers-only"));
    expect(read!.player).toBeNull();
    expect(await reads.playerAndOffers("no-such-game", "p1")).toBeNull();
  });

  it("gives each of many reads asked at once its own player's rows, across games, repeats and unknowns, past one statement's batch", async () => {
    const db = database.db;
    // The same player ids in both games, with different rows in each.
    const ids = Array.from({ length: 6 }, (_, i) => `many-${i}`);
    for (const [game, streak] of [[gameId, 1], [otherGameId, 100]] as const) {
      await db.insert(players).values(ids.map((playerId, i) => ({ gameId: game, playerId, username: `${game}/${playerId}`, loginStreak: streak + i })));
      await db.insert(offerInstances).values(ids.flatMap((playerId, i) => Array.from({ length: i }, (_, n) => ({ ...instance(playerId, { name: `${game}/${playerId}/${n}` }), gameId: game }))));
    }
    const asked = Array.from({ length: 2 * READ_BATCH + 5 }, (_, i) => {
      if (i % 11 === 5) return { game: "no-such-game", playerId: ids[i % ids.length]! };
      if (i % 13 === 7) return { game: gameId, playerId: "nobody" };
      return { game: i % 2 ? gameId : otherGameId, playerId: ids[i % ids.length]! };
    });
    const reads = preparedCampaignReads(db);
    const answers = await Promise.all(asked.map(({ game, playerId }) => reads.playerAndOffers(game, playerId)));
    for (const [i, { game, playerId }] of asked.entries()) {
      expect(answers[i], `read ${i}: ${game}/${playerId}`).toEqual(game === "no-such-game" ? null : await columnWise(playerId, game));
    }
    // Not vacuous: most reads found their player.
    expect(answers.filter((answer) => answer?.player)).toHaveLength(asked.filter(({ game, playerId }) => game !== "no-such-game" && playerId !== "nobody").length);
  });

  it("rejects each read of a statement that fails, and answers the next reads", async () => {
    const reads = preparedCampaignReads(database.db);
    // A player id PostgreSQL cannot take as text fails the whole statement it rides in.
    const failing = await Promise.allSettled([reads.playerAndOffers(gameId, "p1"), reads.playerAndOffers(gameId, "bad\u0000id")]);
    expect(failing.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    expect((await reads.playerAndOffers(gameId, "p1"))!.player!.username).toBe("Zoë");
  });
});
