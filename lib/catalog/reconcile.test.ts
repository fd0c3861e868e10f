import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzParameters } from "@/test-support/fuzz";
import type { FileRead } from "./committed-records";
import type { CatalogError } from "./parse";
import { reconcile, reconcileOne, staleReasonOf } from "./reconcile";
import type { Component } from "./schema";
import type { CatalogEntry } from "./search";

// One component object per (name, version), as the parse cache hands out one per blob.
const components = new Map<string, Component>();
function component(name: string, version = 0): Component {
  const key = `${name}@${version}`;
  let c = components.get(key);
  if (!c) {
    c = { apiVersion: "platform.example.com/v1alpha1", kind: "Component", metadata: { name, displayName: `${name} v${version}` }, spec: { kind: "service", owners: [{ user: "alice" }], environments: [] } } as unknown as Component;
    components.set(key, c);
  }
  return c;
}
const valid = (file: string, name: string, version = 0): FileRead => ({ file, etag: `"${name}-${version}"`, result: { ok: true, component: component(name, version) } });
const broken = (file: string, name?: string, message = "spec.owners: required"): FileRead => ({
  file,
  etag: `"broken-${file}-${message.length}"`,
  result: { ok: false, errors: [{ file, path: "spec.owners", message }], ...(name ? { name } : {}) },
});
const byName = (entries: Iterable<CatalogEntry>) => new Map([...entries].map((e) => [e.name, e]));
const NONE = new Map<string, CatalogEntry>();

describe("reconcile: the index after a refresh", () => {
  it("shows every valid record under its name, with what changed counted", () => {
    const first = reconcile(NONE, [valid("components/a.yaml", "a"), valid("components/b.yaml", "b")], []);
    expect([...first.entries.keys()]).toEqual(["a", "b"]);
    expect(first.changes).toEqual({ changed: 0, added: 2, removed: 0 });
    expect(first.errors.size).toBe(0);

    const second = reconcile(first.entries, [valid("components/a.yaml", "a", 1), valid("components/c.yaml", "c")], []);
    expect([...second.entries.keys()].sort()).toEqual(["a", "c"]);
    expect(second.changes).toEqual({ changed: 1, added: 1, removed: 1 });
  });

  it("keeps an unchanged record's entry object, so the search index keeps what it built for it", () => {
    const first = reconcile(NONE, [valid("components/a.yaml", "a"), valid("components/b.yaml", "b")], []);
    const second = reconcile(first.entries, [valid("components/a.yaml", "a"), valid("components/b.yaml", "b", 1)], []);
    expect(second.entries.get("a")).toBe(first.entries.get("a"));
    expect(second.entries.get("b")).not.toBe(first.entries.get("b"));
  });

  it("lets a name keep the file that held it: a newly added duplicate is the one reported, even when it sorts first", () => {
    const first = reconcile(NONE, [valid("components/z.yaml", "shop")], []);
    const second = reconcile(first.entries, [valid("components/a.yaml", "shop"), valid("components/z.yaml", "shop")], []);
    expect(second.entries.get("shop")?.file).toBe("components/z.yaml");
    expect(second.errors.get("components/a.yaml")).toEqual([
      { file: "components/a.yaml", path: "metadata.name", message: 'duplicate name "shop": components/z.yaml already defines it; this file is ignored until one of the two is renamed' },
    ]);
    // Without a holder, the first file in order wins.
    const fresh = reconcile(NONE, [valid("components/a.yaml", "shop"), valid("components/z.yaml", "shop")], []);
    expect(fresh.entries.get("shop")?.file).toBe("components/a.yaml");
  });

  it("keeps a broken record's last valid version on show, stale with the first error", () => {
    const first = reconcile(NONE, [valid("components/a.yaml", "a")], []);
    const second = reconcile(first.entries, [broken("components/a.yaml", "a")], []);
    expect(second.entries.get("a")).toEqual({ ...first.entries.get("a"), etag: '"broken-components/a.yaml-21"', stale: true, staleReason: "spec.owners: spec.owners: required" });
    expect(second.stale).toBe(1);
    expect(second.changes).toEqual({ changed: 1, added: 0, removed: 0 });
    expect(second.errors.get("components/a.yaml")).toHaveLength(1);
  });

  it("shows no stale version of a broken file whose name another file holds now, nor of a file that never loaded", () => {
    const first = reconcile(NONE, [valid("components/a.yaml", "a")], []);
    const taken = reconcile(first.entries, [broken("components/a.yaml", "a"), valid("components/b.yaml", "a")], []);
    expect(taken.entries.get("a")).toMatchObject({ file: "components/b.yaml", stale: false });
    const never = reconcile(NONE, [broken("components/c.yaml", "c")], []);
    expect(never.entries.size).toBe(0);
    expect(never.errors.get("components/c.yaml")).toHaveLength(1);
  });

  it("reports errors about the records folder itself", () => {
    const folder: CatalogError = { file: "components/link.yaml", path: "", message: "refused: a symbolic link" };
    expect(reconcile(NONE, [], [folder]).errors).toEqual(new Map([["components/link.yaml", [folder]]]));
  });
});

describe("reconcileOne: one record's file read again", () => {
  const entry: CatalogEntry = { name: "a", file: "components/a.yaml", component: component("a"), etag: '"a-0"', stale: false };

  it("shows the new version of a file that loads, with no errors", () => {
    expect(reconcileOne(entry, valid("components/a.yaml", "a", 2))).toEqual({ entry: { ...entry, component: component("a", 2), etag: '"a-2"' }, errors: null });
  });

  it("keeps the last valid version of a file that broke, stale, with its errors", () => {
    const read = broken("components/a.yaml", "a", "kind: unknown");
    expect(reconcileOne(entry, read)).toEqual({ entry: { ...entry, etag: read.etag, stale: true, staleReason: "spec.owners: kind: unknown" }, errors: [{ file: "components/a.yaml", path: "spec.owners", message: "kind: unknown" }] });
    expect(staleReasonOf([])).toBe("the file no longer loads");
  });
});

/** A commit's records files: each valid (a name from a small pool, so duplicates happen), or broken. */
const NAMES = ["a", "b", "c", "d"];
const readsOf = fc
  .uniqueArray(
    fc.record({
      file: fc.constantFrom(...["f0", "f1", "f2", "f3", "f4", "f5"].map((f) => `components/${f}.yaml`)),
      name: fc.constantFrom(...NAMES),
      version: fc.integer({ min: 0, max: 2 }),
      ok: fc.boolean(),
      named: fc.boolean(),
    }),
    { selector: (r) => r.file, maxLength: 6 },
  )
  .map((rows) =>
    rows
      .sort((x, y) => (x.file < y.file ? -1 : 1))
      .map((r) => (r.ok ? valid(r.file, r.name, r.version) : broken(r.file, r.named ? r.name : undefined, `bad ${r.version}`))),
  );

describe("reconcile, properties", () => {
  it("reconciling the same files again changes nothing and keeps every valid entry's object", () => {
    fc.assert(
      fc.property(readsOf, readsOf, (earlier, now) => {
        const before = reconcile(reconcile(NONE, earlier, []).entries, now, []);
        const again = reconcile(before.entries, now, []);
        expect(again.changes).toEqual({ changed: 0, added: 0, removed: 0 });
        expect(again.errors).toEqual(before.errors);
        expect([...again.entries.keys()].sort()).toEqual([...before.entries.keys()].sort());
        for (const [name, e] of again.entries) {
          if (e.stale) expect(e).toEqual(before.entries.get(name));
          else expect(e).toBe(before.entries.get(name));
        }
      }),
      fuzzParameters(200),
    );
  });

  it("every entry comes from its file: a valid read of that name, or the previous version of a file that broke", () => {
    fc.assert(
      fc.property(readsOf, readsOf, (earlier, now) => {
        const previous = reconcile(NONE, earlier, []).entries;
        const next = reconcile(previous, now, []);
        const readOf = new Map(now.map((r) => [r.file, r]));
        for (const [name, e] of next.entries) {
          expect(e.name).toBe(name);
          const r = readOf.get(e.file)!;
          expect(r).toBeDefined();
          expect(e.etag).toBe(r.etag);
          if (r.result.ok) {
            expect(e.stale).toBe(false);
            expect(r.result.component.metadata.name).toBe(name);
          } else {
            expect(e.stale).toBe(true);
            expect(previous.get(name)).toMatchObject({ file: e.file, component: e.component });
          }
        }
      }),
      fuzzParameters(200),
    );
  });

  it("every valid file is on show or reported as a duplicate, and a name's previous holder keeps it", () => {
    fc.assert(
      fc.property(readsOf, readsOf, (earlier, now) => {
        const previous = reconcile(NONE, earlier, []).entries;
        const next = reconcile(previous, now, []);
        for (const r of now) {
          if (!r.result.ok) {
            expect(next.errors.get(r.file)).toEqual(expect.arrayContaining(r.result.errors));
            continue;
          }
          const name = r.result.component.metadata.name;
          const shown = next.entries.get(name);
          expect(shown).toBeDefined();
          if (shown!.file !== r.file) expect(next.errors.get(r.file)?.some((e) => e.path === "metadata.name" && e.message.includes(`"${name}"`))).toBe(true);
          if (previous.get(name)?.file === r.file) expect(shown!.file).toBe(r.file);
        }
      }),
      fuzzParameters(200),
    );
  });

  it("counts what changed: added, removed, and the records whose file, version or staleness moved", () => {
    fc.assert(
      fc.property(readsOf, readsOf, (earlier, now) => {
        const previous = reconcile(NONE, earlier, []).entries;
        const next = reconcile(previous, now, []);
        const names = (m: ReadonlyMap<string, CatalogEntry>) => new Set(m.keys());
        const both = [...names(next.entries)].filter((n) => previous.has(n));
        expect(next.changes.added).toBe(next.entries.size - both.length);
        expect(next.changes.removed).toBe(previous.size - both.length);
        const moved = both.filter((n) => {
          const [a, b] = [previous.get(n)!, next.entries.get(n)!];
          return a.etag !== b.etag || a.stale !== b.stale || a.file !== b.file;
        });
        expect(next.changes.changed).toBe(moved.length);
        expect(next.stale).toBe([...next.entries.values()].filter((e) => e.stale).length);
        expect(byName(next.entries.values()).size).toBe(next.entries.size);
      }),
      fuzzParameters(200),
    );
  });
});
