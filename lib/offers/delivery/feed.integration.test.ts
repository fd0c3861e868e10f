/**
 * The ledger feed's cursors: a cursor pages only the feed of the game and environment that wrote
 * it, and only from a position that feed reached. A cursor of another game or environment, a
 * forged position, damaged bytes: 400 invalid-cursor, never an empty 200 that would hide events.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { offerInstances, players } from "../db/schema";
import { tenantOf } from "../environments";
import * as S from "../contract";
import { startOffersTestApp, type OffersTestContext, type TestGame } from "@/test-support/offers/test-app";
import { encodeCursor } from "./feed";

const reward = { kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 1 };

describe.each(contractDatabaseTargets())("feed cursors on %s", (target) => {
  let t: OffersTestContext;
  let otherGame: TestGame;

  /** `count` claims by the game server of a tenant (players with one claimable offer each). */
  async function claims(tenant: string, headers: Record<string, string>, count: number) {
    const now = t.clock.now();
    for (let i = 0; i < count; i++) {
      const playerId = `p-${randomUUID()}`;
      const instanceId = randomUUID();
      await t.database.db.insert(players).values({ gameId: tenant, playerId, createdAt: now, updatedAt: now });
      await t.database.db.insert(offerInstances).values({
        instanceId, gameId: tenant, playerId, offerId: "gift", status: "claimable", name: "Gift", description: "", rewards: [reward],
        realTime: false, durationSeconds: 3_600, priority: 0, createdAt: now, surfacedAt: now, expiresAt: new Date(now.getTime() + 3_600_000), updatedAt: now,
      });
      const res = await t.post("/v1/reward/sdk/claim", { kind: "offer", instanceId, playerId }, headers);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
  }

  const read = (headers: Record<string, string>, after?: string, limit = 100) =>
    t.inject({ method: "GET", url: `/v1/rewards/events?limit=${limit}${after === undefined ? "" : `&after=${encodeURIComponent(after)}`}`, headers });
  const page = async (headers: Record<string, string>, after?: string, limit = 100) => {
    const res = await read(headers, after, limit);
    expect(res.statusCode, res.body).toBe(200);
    return S.RewardFeedResponse.parse(res.json());
  };
  const expectRefused = async (headers: Record<string, string>, after: string, label: string) => {
    const res = await read(headers, after);
    expect(res.statusCode, label).toBe(400);
    expect(res.json(), label).toEqual({ message: "invalid-cursor" });
  };
  /** The position a cursor names, as the old (r1) format wrote it. */
  const legacyOf = (cursor: string) => {
    const [, xid, id] = Buffer.from(cursor, "base64url").toString().split(".");
    return Buffer.from(`r1.${xid}.${id}`).toString("base64url");
  };

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    const created = await t.app.offers.games.createGame({ gameId: "game-b", name: "B", clientId: "client-b", apiKey: "api-key-of-game-b-0123456789" });
    otherGame = { gameId: created.gameId, clientId: created.clientId, apiKey: created.apiKey };
    await claims("game-a", t.apiHeaders(), 3);
    await claims("game-b", t.apiHeaders(otherGame), 2);
    await claims(tenantOf("game-a", "test"), t.apiHeaders(t.testGame), 2);
    // The feed shows an event once no older transaction can still commit before it; on a PostgreSQL server that
    // other tests share, their open transactions hold that horizon back for a moment.
    await vi.waitFor(async () => expect((await page(t.apiHeaders())).events).toHaveLength(3), { timeout: 20_000, interval: 100 });
  });
  afterAll(async () => t?.close());

  it("pages on with the cursors it wrote, and answers an empty page's cursor again", async () => {
    const first = await page(t.apiHeaders(), undefined, 2);
    expect(first).toMatchObject({ hasMore: true });
    expect(first.events).toHaveLength(2);
    const second = await page(t.apiHeaders(), first.next, 2);
    expect(second).toMatchObject({ hasMore: false });
    expect(second.events).toHaveLength(1);
    const empty = await page(t.apiHeaders(), second.next);
    expect(empty).toEqual({ events: [], next: second.next, hasMore: false });
    await claims("game-a", t.apiHeaders(), 1);
    expect((await page(t.apiHeaders(), empty.next)).events).toHaveLength(1);
  });

  it("refuses a cursor of another game, and of the same game's other environment", async () => {
    const live = (await page(t.apiHeaders(), undefined, 1)).next;
    const other = (await page(t.apiHeaders(otherGame), undefined, 1)).next;
    const test = (await page(t.apiHeaders(t.testGame), undefined, 1)).next;
    await expectRefused(t.apiHeaders(otherGame), live, "game-a's cursor on game-b");
    await expectRefused(t.apiHeaders(), other, "game-b's cursor on game-a");
    await expectRefused(t.apiHeaders(t.testGame), live, "live cursor on test");
    await expectRefused(t.apiHeaders(), test, "test cursor on live");
    // Even a start cursor (nothing read yet) belongs to its feed.
    const emptyGame = await t.app.offers.games.createGame({ gameId: "game-c", name: "C", clientId: "client-c", apiKey: "api-key-of-game-c-0123456789" });
    const start = (await page(t.apiHeaders(emptyGame))).next;
    await expectRefused(t.apiHeaders(), start, "game-c's start cursor on game-a");
    // The old format carries no game: its position must be a row of the caller's own feed.
    await expectRefused(t.apiHeaders(otherGame), legacyOf(live), "game-a's position in the old format, on game-b");
  });

  it("refuses a position the feed never reached, however it is written", async () => {
    await expectRefused(t.apiHeaders(), Buffer.from("r1.99999999999.1").toString("base64url"), "old format, far ahead");
    await expectRefused(t.apiHeaders(), encodeCursor("game-a", { xid: "99999999999", id: 1 }), "a well-formed cursor of game-a, far ahead");
    const last = (await page(t.apiHeaders())).next;
    const [, xid, id] = Buffer.from(last, "base64url").toString().split(".");
    await expectRefused(t.apiHeaders(), encodeCursor("game-a", { xid: xid!, id: Number(id) + 1 }), "one row past the end");
  });

  it("refuses a cursor whose bytes were altered", async () => {
    const cursor = (await page(t.apiHeaders(), undefined, 1)).next;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      const replaced = alphabet[(alphabet.indexOf(cursor[i]!) + 1) % alphabet.length]!;
      const altered = cursor.slice(0, i) + replaced + cursor.slice(i + 1);
      if (Buffer.from(altered, "base64url").equals(Buffer.from(cursor, "base64url"))) continue; // padding bits only
      await expectRefused(t.apiHeaders(), altered, `character ${i}`);
    }
    await expectRefused(t.apiHeaders(), cursor.slice(0, -4), "cut short");
  });

  it("still reads a cursor written in the old format when it names one of the feed's own rows", async () => {
    const first = await page(t.apiHeaders(), undefined, 1);
    const byNew = await page(t.apiHeaders(), first.next);
    const byOld = await page(t.apiHeaders(), legacyOf(first.next));
    expect(byOld).toEqual(byNew);
    expect((await page(t.apiHeaders(), Buffer.from("r1.0.0").toString("base64url"))).events.length).toBeGreaterThan(0);
  });
});
