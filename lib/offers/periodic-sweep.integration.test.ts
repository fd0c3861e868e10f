/**
 * The periodic sweep's retention on a real database: each kind of row is deleted once older than its
 * setting, younger ones and pending deliveries stay, and a retention of 0 days keeps everything.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { rowsOf } from "../db";
import { webhookDeliveries, webhookEndpoints } from "./db/schema";
import { insertActivity } from "./engine/activity";
import { sweepOnce, type Retention } from "./periodic-sweep";

const DAY = 86_400_000;

describe.each(testDatabaseTargets())("the periodic sweep on %s", (target) => {
  let t: OffersTestContext;
  beforeAll(async () => {
    t = await startOffersTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Activity and deliveries of one player, `ages` days old each; answers what is left of them after a sweep. */
  async function seed(playerId: string, ages: number[]) {
    const db = t.app.offers.engine.db;
    const now = t.clock.now();
    const at = (days: number) => new Date(now.getTime() - days * DAY);
    await insertActivity(
      db,
      ages.map((days) => ({ gameId: t.game.gameId, playerId, kind: "snapshot" as const, at: at(days), detail: { fields: days, bytes: 10 } })),
    );
    const endpointId = `ep-${playerId}`;
    await db.insert(webhookEndpoints).values({ endpointId, gameId: t.game.gameId, url: "https://hooks.example.com/", eventTypes: ["reward.granted"], encryptedSecret: "sealed", createdAt: now, updatedAt: now });
    const row = (messageId: string, status: "delivered" | "failed" | "pending", days: number) => ({
      endpointId,
      gameId: t.game.gameId,
      messageId,
      eventType: "reward.granted",
      status,
      eventAt: at(days),
      createdAt: at(days),
      updatedAt: at(days),
      deliveredAt: status === "delivered" ? at(days) : null,
      failedAt: status === "failed" ? at(days) : null,
    });
    await db.insert(webhookDeliveries).values(ages.flatMap((days) => [row(`d-${days}`, "delivered", days), row(`f-${days}`, "failed", days), row(`p-${days}`, "pending", days)]));
    return async () => ({
      activityDays: rowsOf<{ fields: number }>(await db.execute(sql`select (detail->>'fields')::int as fields from offers_player_activity where player_id = ${playerId} order by 1`)).map((r) => r.fields),
      deliveries: rowsOf<{ message_id: string }>(await db.execute(sql`select message_id from offers_webhook_deliveries where endpoint_id = ${endpointId} order by 1`)).map((r) => r.message_id),
    });
  }

  const sweep = (retention: Retention) => sweepOnce(t.app.offers, t.app.offers.engine.db, retention, t.clock.now());

  it("deletes what outlived its retention and keeps the rest; pending deliveries stay whatever their age", async () => {
    const left = await seed("sweep-kept-apart", [400, 31, 29, 1]);
    await sweep({ deliveryDays: 30, bulkDays: 30, activityDays: 30 });
    expect(await left()).toEqual({
      activityDays: [1, 29],
      deliveries: ["d-1", "d-29", "f-1", "f-29", "p-1", "p-29", "p-31", "p-400"],
    });
  });

  it("keeps each kind for its own setting, and everything at 0 days", async () => {
    const left = await seed("sweep-settings", [400, 10]);
    await sweep({ deliveryDays: 0, bulkDays: 0, activityDays: 0 });
    const everything = await left();
    expect(everything.activityDays).toEqual([10, 400]);
    expect(everything.deliveries).toHaveLength(6);
    await sweep({ deliveryDays: 0, bulkDays: 0, activityDays: 5 });
    expect(await left()).toEqual({ activityDays: [], deliveries: everything.deliveries });
    await sweep({ deliveryDays: 100, bulkDays: 0, activityDays: 0 });
    expect((await left()).deliveries).toEqual(["d-10", "f-10", "p-10", "p-400"]);
  });
});
