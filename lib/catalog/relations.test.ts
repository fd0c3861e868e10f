import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fuzzParameters } from "@/test-support/fuzz";
import { neighbourhood, RelationIndex, type RelationRecord } from "./relations";
import type { Component } from "./schema";
import { validComponent } from "@/test-support/catalog/temp-catalog";

type Relations = Pick<Component["spec"], "system" | "dependsOn" | "providesApis" | "consumesApis">;

function record(name: string, relations: Relations = {}): RelationRecord {
  const component = validComponent(name, relations);
  return { name, file: `components/${name}.yaml`, component };
}

function indexOf(...records: RelationRecord[]): RelationIndex {
  const index = new RelationIndex();
  index.sync(records);
  return index;
}

describe("graph walks", () => {
  const edges: Record<string, string[]> = { a: ["b"], b: ["c", "a"], c: ["c"], d: ["a"] };
  const next = (n: string) => edges[n] ?? [];


  it("neighbourhood gives each name its shortest distance, stops at the depth and at the node bound", () => {
    expect([...neighbourhood("d", 1, next, 100).distances]).toEqual([["d", 0], ["a", 1]]);
    expect([...neighbourhood("d", 3, next, 100).distances]).toEqual([["d", 0], ["a", 1], ["b", 2], ["c", 3]]);
    expect(neighbourhood("d", 3, next, 2)).toEqual({ distances: new Map([["d", 0], ["a", 1]]), truncated: true });
    // A name that is not expanded (a missing record) has no neighbours.
    expect([...neighbourhood("d", 3, next, 100, (n) => n !== "a").distances]).toEqual([["d", 0], ["a", 1]]);
  });
});

describe("the relation index", () => {
  const catalog = () =>
    indexOf(
      record("checkout-api", { system: "commerce", dependsOn: ["payments-gateway", "ghost"], providesApis: [{ name: "checkout", type: "openapi", path: "api/openapi.yaml" }], consumesApis: ["payments", "nowhere"] }),
      record("payments-gateway", { system: "commerce", providesApis: [{ name: "payments", type: "grpc", path: "proto/payments.proto" }] }),
      record("store-web", { dependsOn: ["checkout-api"] }),
      record("companion-app", { consumesApis: ["checkout"] }),
      record("plain"),
    );

  it("answers what a record declares and what points at it", () => {
    const view = catalog().view("checkout-api")!;
    expect(view.system).toEqual({ name: "commerce", members: { names: ["checkout-api", "payments-gateway"], total: 2 } });
    expect(view.dependsOn).toEqual([
      { name: "payments-gateway", exists: true },
      { name: "ghost", exists: false },
    ]);
    expect(view.usedBy).toEqual({ names: ["store-web"], total: 1 });
    expect(view.providesApis).toEqual([{ name: "checkout", type: "openapi", path: "api/openapi.yaml", consumers: { names: ["companion-app"], total: 1 }, otherProviders: [] }]);
    expect(view.consumesApis).toEqual([
      { name: "payments", providers: ["payments-gateway"] },
      { name: "nowhere", providers: [] },
    ]);
    expect(view.blastRadius).toBe(2);
    expect(catalog().view("payments-gateway")!.blastRadius).toBe(3);
    expect(catalog().view("nope")).toBeNull();
  });

  it("warns about names no record holds, on the record and in the catalog's list", () => {
    const index = catalog();
    const expected = [
      { name: "checkout-api", file: "components/checkout-api.yaml", path: "spec.dependsOn[1]", message: 'depends on "ghost", which no record of the catalog has as its name' },
      { name: "checkout-api", file: "components/checkout-api.yaml", path: "spec.consumesApis[1]", message: 'consumes the API "nowhere", which no component provides' },
    ];
    expect(index.view("checkout-api")!.warnings).toEqual(expected);
    expect(index.warnings()).toEqual(expected);
    // The missing record appears: its warning goes, with nothing else re-read.
    index.set(record("ghost"));
    expect(index.warnings()).toEqual([expected[1]]);
    expect(index.view("ghost")!.usedBy.names).toEqual(["checkout-api"]);
    index.delete("ghost");
    expect(index.warnings()).toEqual(expected);
  });

  it("warns when two records provide an API of one name", () => {
    const index = indexOf(record("a", { providesApis: [{ name: "x", type: "grpc", path: "x.proto" }] }), record("b", { providesApis: [{ name: "x", type: "openapi", path: "x.yaml" }] }));
    expect(index.warnings().map((w) => `${w.name} ${w.path}: ${w.message}`)).toEqual([
      'a spec.providesApis[0].name: the API "x" is also provided by b: an API has one provider',
      'b spec.providesApis[0].name: the API "x" is also provided by a: an API has one provider',
    ]);
    expect(index.view("a")!.providesApis[0].otherProviders).toEqual(["b"]);
  });

  it("keeps cycles and a record consuming its own API safe", () => {
    const index = indexOf(record("a", { dependsOn: ["b"], providesApis: [{ name: "x", type: "grpc", path: "x.proto" }], consumesApis: ["x"] }), record("b", { dependsOn: ["c"] }), record("c", { dependsOn: ["a"] }));
    expect(["a", "b", "c"].map((n) => index.blastRadius(n))).toEqual([2, 2, 2]);
    expect(index.graph("a", 3, "down")!.edges).toEqual([
      { from: "a", to: "b", kind: "dependsOn", api: null },
      { from: "b", to: "c", kind: "dependsOn", api: null },
      { from: "c", to: "a", kind: "dependsOn", api: null },
    ]);
  });

  it("answers a bounded graph in each direction, with missing records marked and not followed", () => {
    const index = catalog();
    const names = (direction: "up" | "down" | "both", depth = 1) => index.graph("checkout-api", depth, direction)!.nodes.map((n) => `${n.name}@${n.distance}${n.missing ? "?" : ""}`);
    expect(names("down")).toEqual(["checkout-api@0", "payments-gateway@1", "ghost@1?"]);
    expect(names("up")).toEqual(["checkout-api@0", "store-web@1", "companion-app@1"]);
    expect(names("both")).toEqual(["checkout-api@0", "payments-gateway@1", "ghost@1?", "store-web@1", "companion-app@1"]);
    const up = index.graph("payments-gateway", 3, "up")!;
    expect(up.nodes.map((n) => n.name)).toEqual(["payments-gateway", "checkout-api", "store-web", "companion-app"]);
    expect(up.edges).toContainEqual({ from: "checkout-api", to: "payments-gateway", kind: "consumesApi", api: "payments" });
    expect(index.graph("checkout-api", 3, "both", 3)).toMatchObject({ truncated: true, nodes: [{ name: "checkout-api" }, { name: "payments-gateway" }, { name: "ghost" }] });
    expect(index.graph("nope", 1, "both")).toBeNull();
  });
});

// Property tests: random records over a small universe of names, so references hit, miss, cycle and repeat.
const NAMES = ["a", "b", "c", "d", "e", "f"];
const APIS = ["x", "y", "z"];
const uniqueOf = <T,>(arb: fc.Arbitrary<T>) => fc.uniqueArray(arb, { maxLength: 4 });
const relationsArb: fc.Arbitrary<Relations> = fc.record(
  {
    system: fc.constantFrom("s1", "s2"),
    dependsOn: uniqueOf(fc.constantFrom(...NAMES)),
    providesApis: fc.uniqueArray(fc.constantFrom(...APIS), { maxLength: 2 }).map((apis) => apis.map((name) => ({ name, type: "grpc" as const, path: `${name}.proto` }))),
    consumesApis: uniqueOf(fc.constantFrom(...APIS)),
  },
  { requiredKeys: [] },
);
type Op = { set: string; relations: Relations } | { remove: string };
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ set: fc.constantFrom(...NAMES), relations: relationsArb }),
  fc.record({ remove: fc.constantFrom(...NAMES) }),
);

/** Everything the index answers, for comparing two of them. */
function answers(index: RelationIndex) {
  return {
    views: NAMES.map((n) => index.view(n)),
    warnings: index.warnings(),
    graphs: NAMES.flatMap((n) => (["up", "down", "both"] as const).map((d) => index.graph(n, 3, d))),
  };
}

describe("the relation index, property-tested", () => {
  it("kept incrementally, answers what an index built at once from the final records answers", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 30 }), fc.boolean(), (ops, bySync) => {
        const incremental = new RelationIndex();
        const current = new Map<string, RelationRecord>();
        for (const op of ops) {
          if ("set" in op) current.set(op.set, record(op.set, op.relations));
          else current.delete(op.remove);
          // Read between changes, so answers kept from before a change would show.
          answers(incremental);
          if (bySync) incremental.sync([...current.values()]);
          else if ("set" in op) incremental.set(current.get(op.set)!);
          else incremental.delete(op.remove);
        }
        expect(answers(incremental)).toEqual(answers(indexOf(...current.values())));
      }),
      fuzzParameters(100),
    );
  });

  it("blast radius is the number of records with a path of dependencies to the record (naive closure)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...NAMES), relationsArb), (declared) => {
        const records = Object.entries(declared).map(([name, r]) => record(name, r));
        const index = indexOf(...records);
        // a depends directly on b: a names b in dependsOn, or consumes an API b provides (b ≠ a).
        const direct = (a: string, b: string) => {
          const ra = declared[a];
          const rb = declared[b];
          if (!ra || !rb || a === b) return false;
          return Boolean(ra.dependsOn?.includes(b) || ra.consumesApis?.some((api) => rb.providesApis?.some((p) => p.name === api)));
        };
        const present = Object.keys(declared);
        // Transitive closure by repeated relaxation (Floyd–Warshall), independent of the index's walk.
        const path = new Map(present.flatMap((a) => present.map((b) => [`${a}>${b}`, direct(a, b)] as const)));
        for (const k of present) for (const a of present) for (const b of present) if (path.get(`${a}>${k}`) && path.get(`${k}>${b}`)) path.set(`${a}>${b}`, true);
        for (const target of present) {
          const expected = present.filter((a) => a !== target && path.get(`${a}>${target}`)).length;
          expect(index.blastRadius(target), target).toBe(expected);
        }
      }),
      fuzzParameters(100),
    );
  });

  it("a graph holds its root at 0, nodes within the depth, edges between its nodes only, missing records unexpanded", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...NAMES), relationsArb), fc.integer({ min: 1, max: 3 }), fc.constantFrom("up" as const, "down" as const, "both" as const), (declared, depth, direction) => {
        const index = indexOf(...Object.entries(declared).map(([name, r]) => record(name, r)));
        for (const root of Object.keys(declared)) {
          const graph = index.graph(root, depth, direction)!;
          expect(graph.nodes[0]).toMatchObject({ name: root, distance: 0, missing: false });
          const nodes = new Map(graph.nodes.map((n) => [n.name, n]));
          expect(nodes.size).toBe(graph.nodes.length);
          for (const n of graph.nodes) {
            expect(n.distance).toBeLessThanOrEqual(depth);
            expect(n.missing).toBe(!(n.name in declared));
          }
          for (const e of graph.edges) {
            expect(nodes.has(e.from) && nodes.has(e.to)).toBe(true);
            expect(nodes.get(e.from)!.missing).toBe(false);
          }
          if (direction === "up") expect(graph.nodes.every((n) => !n.missing)).toBe(true);
          // Each distance is the shortest: a node at d > 0 has a neighbour at d - 1 along the direction.
          const sources = (name: string) =>
            graph.edges.flatMap((e) => [...(direction !== "up" && e.to === name ? [e.from] : []), ...(direction !== "down" && e.from === name ? [e.to] : [])]);
          for (const n of graph.nodes) if (n.distance > 0) expect(sources(n.name).some((s) => nodes.get(s)!.distance === n.distance - 1), n.name).toBe(true);
          // The graph carries the root's blast radius: every node of its whole "up" graph, however deep.
          expect(graph.blastRadius).toBe(index.blastRadius(root));
          expect(index.graph(root, NAMES.length, "up")!.nodes.length - 1).toBe(graph.blastRadius);
        }
      }),
      fuzzParameters(100),
    );
  });
});
