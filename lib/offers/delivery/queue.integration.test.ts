/**
 * The fan-out runs several times a second for as long as the service runs, while the outbox it reads
 * (the reward ledger) only grows: its plan must reach the outbox through the commit index alone,
 * whatever the table's statistics say. Right after a bulk load they say nothing, and PostgreSQL then
 * guessed that a third of the outbox was newer than the oldest running transaction and read all of it.
 * The fan-out and the lease run by name, so after five calls a connection may keep their generic plan
 * (planned without the values): that plan must read the outbox and the delivery table through their
 * indexes too.
 */
import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/lib/db";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { ensureFanOutCursor, fanOut, fanOutStatement, leaseStatement } from "./queue";

const OUTBOX_EVENTS = 20_000;
const ENDPOINT = "endpoint-a";

type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };
type Database = Awaited<ReturnType<typeof openOffersTestDatabase>>["db"];

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

function planOf(result: unknown): PlanNode {
  const [row] = rowsOf<{ "QUERY PLAN": Array<{ Plan: PlanNode }> | string }>(result);
  const explained = row!["QUERY PLAN"];
  return (typeof explained === "string" ? (JSON.parse(explained) as Array<{ Plan: PlanNode }>) : explained)[0]!.Plan;
}

/** How each plan node reads `table`. */
function scansOf(plan: PlanNode, table: string): string[] {
  return nodesOf(plan).filter((node) => node["Relation Name"] === table).map((node) => node["Node Type"]);
}

let probes = 0;
const literal = (value: unknown) => (value === null || value === undefined ? "null" : `'${String(value).replaceAll("'", "''")}'`);

/** The generic plan of `statement`: prepared under a name, explained as a named statement's sixth call may run it. */
async function genericPlanOf(db: Database, statement: SQL): Promise<PlanNode> {
  const { sql: text, params } = new PgDialect().sqlToQuery(statement);
  const name = `generic_plan_probe_${++probes}`;
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
    await tx.execute(sql.raw(`prepare ${name} as ${text}`));
    const plan = planOf(await tx.execute(sql.raw(`explain (format json) execute ${name}(${params.map(literal).join(", ")})`)));
    await tx.execute(sql.raw(`deallocate ${name}`));
    return plan;
  });
}

describe.each(contractDatabaseTargets())("the delivery fan-out on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
    // A bulk load and no ANALYZE after it: the outbox has rows but no statistics yet.
    await database.db.execute(sql`
      insert into offers_reward_events (game_id, player_id, source_kind, source_id, offer_id, rewards, source, occurred_at)
      select 'game-a', 'player-' || i, 'offer', 'instance-' || i, 'gift', '[]'::jsonb, 'server', now()
      from generate_series(1, ${OUTBOX_EVENTS}::int) i`);
    // And as many deliveries, all delivered: the ones a lease looks for (pending and due) are few among them.
    await database.db.execute(sql`insert into offers_games (game_id, name) values ('game-a', 'Game A')`);
    await database.db.execute(sql`
      insert into offers_webhook_endpoints (endpoint_id, game_id, url, event_types, encrypted_secret, created_at, updated_at)
      values (${ENDPOINT}, 'game-a', 'https://example.com/hook', '["reward.granted"]'::jsonb, 'secret', now(), now())`);
    await database.db.execute(sql`
      insert into offers_webhook_deliveries (endpoint_id, game_id, message_id, event_type, reward_event_id, status, next_attempt_at, event_at, delivered_at, created_at, updated_at)
      select ${ENDPOINT}, e.game_id, e.event_id, e.type, e.id, 'delivered', null, e.occurred_at, now(), now(), now()
      from offers_reward_events e`);
    await ensureFanOutCursor(database.db, new Date());
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  const lease = () => ({ token: "test-lease", until: new Date(Date.now() + 5_000), total: 64, perEndpoint: 64, busy: new Map<string, number>() });

  it("reads the outbox through its index: no plan node scans the whole event table", async () => {
    const plan = planOf(await database.db.execute(sql`explain (format json) ${fanOutStatement(new Date(), 256, lease())}`));
    const scansOfTheOutbox = scansOf(plan, "offers_reward_events");
    expect(scansOfTheOutbox.length).toBeGreaterThan(0);
    expect(scansOfTheOutbox).not.toContain("Seq Scan");
  });

  it("keeps to the indexes in the generic plans of the statements run by name: the fan-out and the lease", async () => {
    const fanOutPlan = await genericPlanOf(database.db, fanOutStatement(new Date(), 256, lease()));
    expect(scansOf(fanOutPlan, "offers_reward_events").length).toBeGreaterThan(0);
    expect(scansOf(fanOutPlan, "offers_reward_events")).not.toContain("Seq Scan");

    const leasePlan = await genericPlanOf(database.db, leaseStatement(new Date(), { token: "test-lease", until: new Date(Date.now() + 5_000) }, { total: 64, perEndpoint: 64, busy: new Map([[ENDPOINT, 1]]) }));
    expect(scansOf(leasePlan, "offers_webhook_deliveries").length).toBeGreaterThan(0);
    expect(scansOf(leasePlan, "offers_webhook_deliveries")).not.toContain("Seq Scan");
  });

  it("still fans out the loaded events in batches and then finds none hidden", async () => {
    const first = await fanOut(database.db, new Date(), 256, lease());
    expect(first).toMatchObject({ events: 256, hidden: false, queued: 0 });
    const second = await fanOut(database.db, new Date(), 256, lease());
    expect(second.events).toBe(256);
  });
});
