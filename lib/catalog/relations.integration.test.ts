// Relations follow the catalog's records on a real config repository: a commit that changes one record is
// re-read alone and moves only its edges; a broken file keeps its last valid relations; a restart from the
// snapshot answers the same relations.
import { afterEach, describe, expect, it } from "vitest";
import { tempCatalog, validComponent, yamlOf, type TempRepo } from "@/test-support/catalog/temp-catalog";
import type { RelationRecord } from "./relations";

let repo: TempRepo | undefined;
afterEach(async () => {
  await repo?.cleanup();
  repo = undefined;
});

const record = (name: string, spec: Parameters<typeof validComponent>[1] = {}) => yamlOf(validComponent(name, spec));

describe("the catalog's relations", () => {
  it("a commit changing one record re-reads that file alone and moves only its edges; a broken file keeps its last valid ones", async () => {
    repo = await tempCatalog(
      {
        "a.yaml": record("a", { dependsOn: ["b"] }),
        "b.yaml": record("b", { dependsOn: ["c"] }),
        "c.yaml": record("c"),
        "d.yaml": record("d", { dependsOn: ["ghost"] }),
      },
      { snapshot: true },
    );
    const { catalog } = repo;
    expect(catalog.relations.blastRadius("c")).toBe(2);
    expect(catalog.relations.warnings().map((w) => `${w.name} ${w.path}`)).toEqual(["d spec.dependsOn[0]"]);

    // Spy on the relation index: only the changed record's edges move.
    const moved: string[] = [];
    const relations = catalog.relations;
    const set = relations.set.bind(relations);
    relations.set = (r: RelationRecord) => {
      const before = relations.view(r.name);
      set(r);
      if (JSON.stringify(before) !== JSON.stringify(relations.view(r.name))) moved.push(r.name);
    };
    await repo.commit({ "components/d.yaml": record("d", { dependsOn: ["c"] }) });
    await catalog.refresh({ pull: false });
    expect(catalog.lastLoad).toMatchObject({ filesRead: 1 });
    expect(moved).toEqual(["d"]);
    expect(catalog.relations.blastRadius("c")).toBe(3);
    expect(catalog.relations.warnings()).toEqual([]);
    expect(catalog.relations.view("c")!.usedBy).toEqual({ names: ["b", "d"], total: 2 });

    // A file that breaks keeps its last valid version on show, and so its relations.
    await repo.commit({ "components/d.yaml": "metadata: [\n" });
    await catalog.refresh({ pull: false });
    expect(catalog.get("d")?.stale).toBe(true);
    expect(catalog.relations.view("c")!.usedBy.names).toEqual(["b", "d"]);

    // A removed record takes its edges along, and what named it warns.
    await repo.commit({ "components/d.yaml": null, "components/b.yaml": null });
    await catalog.refresh({ pull: false });
    expect(catalog.relations.view("c")!.usedBy.total).toBe(0);
    expect(catalog.relations.warnings().map((w) => w.message)).toEqual(['depends on "b", which no record of the catalog has as its name']);

    // A restart from the snapshot answers the same relations.
    await catalog.flushSnapshot();
    const restarted = await repo.restart();
    expect(restarted.lastLoad?.source).toBe("snapshot");
    expect(restarted.relations.view("a")).toEqual(catalog.relations.view("a"));
    expect(restarted.relations.warnings()).toEqual(catalog.relations.warnings());
  });
});
