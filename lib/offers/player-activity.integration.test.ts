/**
 * The player's activity on the timeline, over real HTTP on a real database: a snapshot push is an entry
 * beside the offer transitions it caused, an event stream's open and close appear once the instance
 * has written its buffer, the kinds filter and the cursor treat the new kind like the others, and the
 * retention sweep's delete takes old rows only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { sql } from "drizzle-orm";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { MemoryEventBus } from "../events";
import { rowsOf } from "../db";
import * as S from "./contract";
import { insertActivity, purgeActivity } from "./engine/activity";
import { createEventStream, type EventStream } from "./sse";

const ADMIN = "activity-admin-token-0123456789";

async function until(check: () => boolean | Promise<boolean>, ms = 3_000, what = "condition") {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(testDatabaseTargets())("player activity on the timeline on %s", (target) => {
  let t: OffersTestContext;
  let stream: EventStream;
  let base: string;
  const admin = (url: string) => t.inject({ method: "GET", url: `/v1/admin/games/${t.game.gameId}${url}`, headers: { authorization: `Bearer ${ADMIN}` } });
  const page = async (playerId: string, query = "") => {
    const res = await admin(`/players/${playerId}/timeline${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return S.TimelinePage.parse(res.json());
  };
  const key = (e: S.TimelineEntry) => `${e.kind}:${e.id}`;

  beforeAll(async () => {
    let clockNow = () => Date.now();
    // A long flush interval: the tests write the buffer themselves, so they see when it is written.
    stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 1_000, staleTimeoutMs: 60_000, now: () => clockNow(), activityFlushMs: 60_000 });
    t = await startOffersTestApp(target, { adminToken: ADMIN, eventStream: stream });
    clockNow = () => t.clock.now().getTime();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
    const api = t.apiHeaders();
    const gift = { kind: "item", rewardId: "gift", name: "Gift", amount: 1 };
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/welcome", headers: api, payload: { name: "Welcome", rewards: [gift], durationSeconds: 600, realTime: true, audience: { field: "daysInGame", op: "gte", value: 0 } } })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("shows a snapshot push with its size, below the offer transitions it caused at the same instant", async () => {
    const playerId = "act-snap";
    const body = { playerId, username: "Ada", daysInGame: 3, currencies: { gold: { balance: 5, in: 5, out: 0 } } };
    const pushed = await t.post("/v1/player/snapshot", body, t.apiHeaders());
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
    const { entries } = await page(playerId);
    const snapshot = entries.find((e) => e.kind === "activity");
    expect(snapshot).toMatchObject({ kind: "activity", activity: "snapshot", fields: 3, instance: null, resumed: null, openMs: null });
    expect(snapshot?.kind === "activity" ? snapshot.bytes : 0).toBeGreaterThan(50);
    // The audience rule surfaced the offer on this push: effect above cause (newest first).
    const sameInstant = entries.filter((e) => e.kind === "offer" && e.at === snapshot!.at);
    expect(sameInstant.length).toBeGreaterThan(0);
    for (const offer of sameInstant) expect(entries.indexOf(offer)).toBeLessThan(entries.indexOf(snapshot!));

    t.clock.advance(1_000);
    expect((await t.post("/v1/player/snapshot", { playerId, loginStreak: 2 }, t.apiHeaders())).status).toBe(200);
    const again = (await page(playerId, "?kinds=activity")).entries;
    expect(again.map((e) => (e.kind === "activity" ? [e.activity, e.fields] : null))).toEqual([
      ["snapshot", 1],
      ["snapshot", 3],
    ]);
  });

  it("records a stream opened and closed once the buffer is written, not on the connect path", async () => {
    const playerId = "act-stream";
    expect((await t.post("/v1/player/snapshot", { playerId }, t.apiHeaders())).status).toBe(200);
    const open = async (headers: Record<string, string> = {}) => {
      const controller = new AbortController();
      const res = await fetch(`${base}/sse/connect`, { headers: { Accept: "text/event-stream", Authorization: `Bearer ${await t.jwt(playerId)}`, ...headers }, signal: controller.signal });
      expect(res.status).toBe(200);
      return () => controller.abort();
    };
    t.clock.advance(1_000);
    const close = await open();
    // Live, not merely connected: the open is recorded once the stream has caught up.
    const key = { gameId: t.game.gameId, playerId };
    await until(() => stream.hub.isLive(key), 3_000, "live");
    // Nothing is written while the stream connects: it waits in the buffer.
    expect((await page(playerId, "?kinds=activity")).entries.map((e) => (e.kind === "activity" ? e.activity : null))).toEqual(["snapshot"]);
    t.clock.advance(252_000);
    close();
    await until(() => stream.hub.connectionCount === 0, 3_000, "closed");
    t.clock.advance(1_000);
    const closeResumed = await open({ "Last-Event-ID": "0" });
    await until(() => stream.hub.isLive(key), 3_000, "live again");
    await stream.flushActivity();

    const entries = (await page(playerId, "?kinds=activity")).entries.filter((e) => e.kind === "activity");
    expect(entries.map((e) => [e.activity, e.resumed, e.openMs, e.reason])).toEqual([
      ["stream-opened", true, null, null],
      ["stream-closed", null, 252_000, "client closed"],
      ["stream-opened", false, null, null],
      ["snapshot", null, null, null],
    ]);
    expect(entries[0]!.instance).toBe(stream.hub.instance);
    closeResumed();
    await until(() => stream.hub.connectionCount === 0, 3_000, "closed again");
  });

  it("keeps or leaves out activity with the kinds filter, and pages across it without a gap or a repeat", async () => {
    const playerId = "act-snap";
    const whole = (await page(playerId, "?limit=200")).entries.map(key);
    expect(whole.some((k) => k.startsWith("activity:"))).toBe(true);
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let before: string | null = null;
      for (let pages = 0; pages < 50; pages++) {
        const p = await page(playerId, `?limit=${limit}${before ? `&before=${before}` : ""}`);
        seen.push(...p.entries.map(key));
        if (!p.next) break;
        before = p.next;
      }
      expect(seen).toEqual(whole);
    }
    const withoutActivity = (await page(playerId, "?kinds=offer,reward,delivery,support")).entries.map(key);
    expect(withoutActivity).toEqual(whole.filter((k) => !k.startsWith("activity:")));
    const onlyActivity = (await page(playerId, "?kinds=activity")).entries.map(key);
    expect(onlyActivity).toEqual(whole.filter((k) => k.startsWith("activity:")));
  });

  it("deletes activity older than the retention only", async () => {
    const db = t.app.offers.engine.db;
    const now = t.clock.now();
    const day = 86_400_000;
    await insertActivity(db, [
      { gameId: t.game.gameId, playerId: "act-old", kind: "stream-opened", at: new Date(now.getTime() - 31 * day), detail: { instance: 'a "quoted", {braced} one', resumed: false } },
      { gameId: t.game.gameId, playerId: "act-old", kind: "stream-closed", at: new Date(now.getTime() - 29 * day), detail: { openMs: 5 } },
    ]);
    const count = async () => rowsOf<{ n: string }>(await db.execute(sql`select count(*)::text as n from offers_player_activity where player_id = 'act-old'`))[0]!.n;
    expect(await count()).toBe("2");
    const instance = rowsOf<{ i: string }>(await db.execute(sql`select detail->>'instance' as i from offers_player_activity where player_id = 'act-old' and kind = 'stream-opened'`))[0]!.i;
    expect(instance).toBe('a "quoted", {braced} one');
    expect(await purgeActivity(db, new Date(now.getTime() - 30 * day), 10_000)).toBe(1);
    expect(await count()).toBe("1");
    // Rows of this day are untouched.
    expect((await page("act-snap", "?kinds=activity")).entries.length).toBeGreaterThan(0);
  });
});
