// The scorecard trend in the portal database: a day is taken once whatever the number of instances,
// a component's and a group's trend read back by day; and the owner rollup the owner page shows.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as schema from "./db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { componentTrend, groupTrend, levelsOf, readScorecardFacts, takeDailyScorecardSnapshot } from "./scorecards";

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

  it("gives the levels of the components named and their rollup, ignoring names the catalog does not hold", () => {
    const owned = levelsOf(repo.catalog, ["a", "b", "gone"]);
    expect([...owned.byName].map(([name, l]) => [name, l.level])).toEqual([
      ["a", null],
      ["b", null],
    ]);
    expect(owned.rollup).toMatchObject({ components: 2, levels: { none: 2, bronze: 0, silver: 0, gold: 0 } });
    expect(levelsOf(repo.catalog, ["nobody"]).rollup.components).toBe(0);
  });

  it("reads the last release and the oldest open review of each component, and the levels follow them", async () => {
    const release = (version: string, at: string) => ({
      component: "a",
      environment: "staging",
      version,
      tag: `v${version}`,
      commitSha: "0".repeat(40),
      sourceRef: "main",
      releaseType: "minor",
      releasedBy: "olga",
      releasedAt: new Date(at),
    });
    await handle.db.insert(schema.componentReleases).values([release("1.0.0", "2026-08-01T10:00:00Z"), release("1.1.0", "2026-11-20T10:00:00Z")]);
    const config = {
      openMergeRequests: async () =>
        [
          { sourceBranch: "portal/a/record-of-a-0123456789ab", createdAt: "2026-11-25T09:00:00Z" },
          { sourceBranch: "portal/a/config-of-a-0123456789ab", createdAt: "2026-12-03T09:00:00Z" },
          { sourceBranch: "feature/elsewhere", createdAt: "2026-01-01T00:00:00Z" },
        ] as Awaited<ReturnType<Parameters<typeof readScorecardFacts>[1]["openMergeRequests"]>>,
    };
    try {
      const facts = await readScorecardFacts(handle.db, config, new Date("2026-12-06T12:00:00Z"));
      expect(facts.today).toBe(Date.UTC(2026, 11, 6));
      expect([...facts.lastRelease]).toEqual([["a", Date.parse("2026-11-20T10:00:00Z")]]);
      expect([...facts.oldestOpenReview]).toEqual([["a", Date.parse("2026-11-25T09:00:00Z")]]);
      // a: one owner (no level either way); its scorecard says why each fact rule passed or failed.
      repo.catalog.setScorecardFacts(facts);
      const card = repo.catalog.scorecardOf("a");
      expect(card?.results.find((r) => r.id === "recent-release")).toMatchObject({ passed: true, why: "last released 2026-11-20 (16 days ago); within 90 wanted" });
      expect(card?.results.find((r) => r.id === "reviews-decided")).toMatchObject({ passed: false, why: "its oldest open review was opened 2026-11-25 (11 days ago); at most 7 wanted" });
    } finally {
      await handle.db.delete(schema.componentReleases);
    }
  });
});
