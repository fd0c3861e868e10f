// The scorecard trend in the portal database: a day is taken once whatever the number of instances,
// a component's and a group's trend read back by day; and the owner rollup the owner page shows.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as schema from "./db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { componentTrend, groupTrend, ownerScorecardRollup, takeDailyScorecardSnapshot } from "./scorecards";

const record = (name: string, owners: Array<{ user: string; group?: string }>) => {
  const c = validComponent(name, { owners, lifecycle: "production" });
  return yamlOf({ ...c, metadata: { ...c.metadata, description: `The ${name} service` } });
};

describe.each(testDatabaseTargets())("scorecard trend on %s", (target) => {
  let handle: TestDatabase<typeof schema>;
  let repo: TempRepo;
  beforeAll(async () => {
    handle = await openPortalTestDatabase(target);
    repo = await tempCatalog({
      "a.yaml": record("a", [{ user: "alice", group: "Commerce/Backend" }]),
      "b.yaml": record("b", [{ user: "alice", group: "commerce/backend" }, { user: "bob" }]),
    });
  });
  afterAll(async () => {
    await repo?.cleanup();
    await handle?.close();
  });
  afterEach(async () => {
    await handle.db.delete(schema.scorecardComponentDays);
    await handle.db.delete(schema.scorecardGroupDays);
    await handle.db.delete(schema.scorecardSnapshotDays);
  });

  it("takes a day once when two instances try at the same time, and again the next day", async () => {
    const day1 = new Date("2026-12-05T10:00:00Z");
    const outcomes = await Promise.all([takeDailyScorecardSnapshot(handle.db, repo.catalog, day1), takeDailyScorecardSnapshot(handle.db, repo.catalog, day1)]);
    expect(outcomes.filter((o) => o.taken)).toEqual([{ taken: true, day: "2026-12-05", components: 2, groups: 1 }]);
    expect(await takeDailyScorecardSnapshot(handle.db, repo.catalog, new Date("2026-12-05T23:59:00Z"))).toEqual({ taken: false, day: "2026-12-05" });
    expect((await handle.db.select().from(schema.scorecardComponentDays)).length).toBe(2);

    // The next day b loses an owner: its level drops from silver to none.
    await repo.commit({ "components/b.yaml": record("b", [{ user: "alice", group: "commerce/backend" }]) });
    await repo.catalog.refresh({ pull: false });
    await takeDailyScorecardSnapshot(handle.db, repo.catalog, new Date("2026-12-06T01:00:00Z"));
    const now = new Date("2026-12-06T12:00:00Z");
    expect(await componentTrend(handle.db, "b", now)).toEqual([
      { day: "2026-12-05", level: "silver", rank: 2, passed: 4, total: 5 },
      { day: "2026-12-06", level: null, rank: 0, passed: 3, total: 5 },
    ]);
    expect((await groupTrend(handle.db, "COMMERCE/backend", now)).map((p) => [p.day, p.levels])).toEqual([
      ["2026-12-05", { none: 1, bronze: 0, silver: 1, gold: 0 }],
      ["2026-12-06", { none: 2, bronze: 0, silver: 0, gold: 0 }],
    ]);
    // A trend reads the days asked for only.
    expect(await componentTrend(handle.db, "b", now, 1)).toHaveLength(1);
  });

  it("rolls up what a user or a group owns, lowest level first", () => {
    const alice = ownerScorecardRollup(repo.catalog, { user: "ALICE" });
    expect(alice.components.map((c) => [c.name, c.level])).toEqual([
      ["a", null],
      ["b", null],
    ]);
    expect(alice.rollup).toMatchObject({ components: 2, levels: { none: 2, bronze: 0, silver: 0, gold: 0 } });
    expect(ownerScorecardRollup(repo.catalog, { group: "nobody" }).rollup.components).toBe(0);
  });
});
