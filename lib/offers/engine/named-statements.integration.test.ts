/**
 * The hot claim and the campaigns read run as named statements: after five calls a connection may keep
 * their generic plans, made from the tables as they were then. A service starts on empty tables, and a
 * plan made there must still reach a player's rows through the indexes, or every later call reads whole
 * tables as they grow (as the delivery lease's generic plan did: docs/decisions/2026-12-08-fan-out-and-lease-run-by-name.md).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { genericPlanOf, tableNodesOf } from "@/test-support/db/plans";
import { openOffersTestDatabase } from "@/test-support/offers/test-database";
import { campaignReadQuery } from "./campaigns";
import { HOT_CLAIM } from "./claim-rows";

/** Tables that grow with the players: never read whole. (offers_games holds a handful of rows: a scan of it is fine.) */
const GROWING = ["offers_players", "offers_instances", "offers_idempotency_keys"];

const wholeTableReads = (nodes: string[]) => nodes.filter((node) => node.startsWith("Seq Scan ") && GROWING.includes(node.slice("Seq Scan ".length)));

describe.each(contractDatabaseTargets())("the named statements' generic plans on empty tables, on %s", (target) => {
  let database: Awaited<ReturnType<typeof openOffersTestDatabase>>;

  beforeAll(async () => {
    database = await openOffersTestDatabase(target);
  });

  afterAll(async () => {
    await database?.close();
  });

  it("the hot claim, with and without an Idempotency-Key, reads the player and the offer by their keys", async () => {
    const now = new Date().toISOString();
    const plain = tableNodesOf(await genericPlanOf(database.db, HOT_CLAIM.plain.text, ["game", "player", "instance", now, now, "server"]));
    expect(plain).toContain("Index Scan offers_players");
    expect(plain).toContain("Index Scan offers_instances");
    expect(wholeTableReads(plain)).toEqual([]);

    const keyed = tableNodesOf(await genericPlanOf(database.db, HOT_CLAIM.keyed.text, ["game", "player", "instance", now, now, "server", "claim", "key", "fingerprint", now]));
    expect(keyed).toContain("Index Scan offers_players");
    expect(wholeTableReads(keyed)).toEqual([]);
  });

  it("the campaigns read reads each player's row and offers by their keys", async () => {
    const { sql: text } = campaignReadQuery(database.db).toSQL();
    const nodes = tableNodesOf(await genericPlanOf(database.db, text, [["game"], ["player"]]));
    expect(nodes).toContain("Index Scan offers_players");
    expect(nodes).toContain("Index Scan offers_instances");
    expect(wholeTableReads(nodes)).toEqual([]);
  });
});
