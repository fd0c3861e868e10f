/**
 * The fan-out runs several times a second for as long as the service runs, while the outbox it reads
 * (the reward ledger) only grows: its plan must reach the outbox through the commit index alone,
 * whatever the table's statistics say. Right after a bulk load they say nothing, and PostgreSQL then
 * guessed that a third of the outbox was newer than the oldest running transaction and read all of it.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planOf, scansOf } from "@/test-support/db/plans";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { ensureFanOutCursor, fanOut, fanOutStatement } from "./queue";

const OUTBOX_EVENTS = 20_000;

describe.each(contractDatabaseTargets())("the delivery fan-out on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
    // A bulk load and no ANALYZE after it: the outbox has rows but no statistics yet.
    await database.db.execute(sql`
      insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, rewards, source, occurred_at)
      select 'game-a', 'player-' || i, 'offer', 'instance-' || i, 'gift', '[]'::jsonb, 'server', now()
      from generate_series(1, ${OUTBOX_EVENTS}::int) i`);
    await ensureFanOutCursor(database.db, new Date());
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  const lease = () => ({ token: "test-lease", until: new Date(Date.now() + 5_000), total: 64, perEndpoint: 64, busy: new Map<string, number>() });

  it("reads the outbox through its index: no plan node scans the whole event table", async () => {
    const scansOfTheOutbox = scansOf(await planOf(database.db, fanOutStatement(new Date(), 256, lease())), "offers_reward_events");
    expect(scansOfTheOutbox.length).toBeGreaterThan(0);
    expect(scansOfTheOutbox).not.toContain("Seq Scan");
  });

  it("still fans out the loaded events in batches and then finds none hidden", async () => {
    const first = await fanOut(database.db, new Date(), 256, lease());
    expect(first).toMatchObject({ events: 256, hidden: false, queued: 0 });
    const second = await fanOut(database.db, new Date(), 256, lease());
    expect(second.events).toBe(256);
  });
});
