// Scorecard rules read from the config repository: a commit that changes them moves the levels, a commit
// that changes a record re-scores that record only, a broken rules file is a load error and the rules in
// force stay, and without a file the default rules apply.
import { afterEach, describe, expect, it } from "vitest";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import { listQuerySchema } from "./query";
import { SCORECARD_RULES_FILE } from "./scorecards";

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const described = (name: string, owners: number) => {
  const c = validComponent(name, { owners: Array.from({ length: owners }, (_, i) => ({ user: `u${i}` })), lifecycle: "production" });
  return yamlOf({ ...c, metadata: { ...c.metadata, description: `The ${name} service` } });
};
const rules = (minOwners: number) => `levels: [bronze, silver]
rules:
  - { id: owners, title: Owners, level: bronze, check: { type: minOwners, count: ${minOwners} } }
  - { id: production, title: Production, level: silver, check: { type: environment, environment: production } }
`;
const levelOf = (r: TempRepo, name: string) => r.catalog.list({ ...listQuerySchema.parse({ q: name }), pageSize: 25 }).items.find((i) => i.name === name)?.level;
const namesAt = (r: TempRepo, level: string) => r.catalog.list(listQuerySchema.parse({ level })).items.map((i) => i.name);

describe("scorecard rules from the config repository", () => {
  it("applies the default rules without a file, and a committed rules file moves the levels", async () => {
    repo = await tempCatalog({ "a.yaml": described("a", 1), "b.yaml": described("b", 3) });
    expect(repo.catalog.scorecardRules.levels).toEqual(["bronze", "silver", "gold"]);
    // Default rules: two owners are bronze; b also runs in production with a lifecycle: silver; a service without APIs is not gold.
    expect([levelOf(repo, "a"), levelOf(repo, "b")]).toEqual([null, "silver"]);

    await repo.commit({ [SCORECARD_RULES_FILE]: rules(1) }, "Scorecards: one owner is enough");
    await repo.catalog.refresh({ pull: false });
    expect(repo.catalog.scorecardRules.levels).toEqual(["bronze", "silver"]);
    expect(namesAt(repo, "silver")).toEqual(["a", "b"]);

    await repo.commit({ [SCORECARD_RULES_FILE]: rules(3) }, "Scorecards: three owners");
    await repo.catalog.refresh({ pull: false });
    expect(namesAt(repo, "silver")).toEqual(["b"]);
    expect(namesAt(repo, "none")).toEqual(["a"]);
    expect(repo.catalog.levelRollup().levels).toEqual({ none: 1, bronze: 0, silver: 1 });
  });

  it("re-scores only the records a commit changed", async () => {
    repo = await tempCatalog({ "a.yaml": described("a", 1), "b.yaml": described("b", 1), "c.yaml": described("c", 1) });
    const before = repo.catalog.scorecards.evaluations;
    await repo.commit({ "components/b.yaml": described("b", 2) });
    await repo.catalog.refresh({ pull: false });
    expect(repo.catalog.scorecards.evaluations - before).toBe(1);
    expect(levelOf(repo, "b")).toBe("silver");
  });

  it("keeps the rules in force when the rules file breaks, and lists the file's problems with the load errors", async () => {
    repo = await tempCatalog({ "a.yaml": described("a", 1) });
    await repo.commit({ [SCORECARD_RULES_FILE]: rules(1) });
    await repo.catalog.refresh({ pull: false });
    await repo.commit({ [SCORECARD_RULES_FILE]: rules(1).replace("level: silver", "level: platinum") });
    await repo.catalog.refresh({ pull: false });
    expect(repo.catalog.errors).toEqual([{ file: SCORECARD_RULES_FILE, path: "rules.1.level", message: '"platinum" is not one of the levels (bronze, silver)' }]);
    expect(repo.catalog.scorecardRules.levels).toEqual(["bronze", "silver"]);
    expect(levelOf(repo, "a")).toBe("silver");
    // A record commit meanwhile keeps the rules file's error listed.
    await repo.commit({ "components/a.yaml": described("a", 2) });
    await repo.catalog.refresh({ pull: false });
    expect(repo.catalog.errors.map((e) => e.file)).toEqual([SCORECARD_RULES_FILE]);
    // Removing the file: the default rules, no error.
    await repo.commit({ [SCORECARD_RULES_FILE]: null });
    await repo.catalog.refresh({ pull: false });
    expect(repo.catalog.errors).toEqual([]);
    expect(repo.catalog.scorecardRules.levels).toEqual(["bronze", "silver", "gold"]);
  });
});
