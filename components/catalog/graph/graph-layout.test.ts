import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { fuzzParameters } from "@/test-support/fuzz";
import { RelationIndex } from "@/lib/catalog/relations";
import type { ComponentGraph, GraphNode } from "@/lib/catalog/relation-schema";
import { validComponent } from "@/test-support/catalog/temp-catalog";
import { blastRadiusSentence, layoutGraph, mergeEdges, NODE_HEIGHT, NODE_WIDTH, relationsAsText } from "./graph-layout";

const node = (name: string, distance: number, missing = false): GraphNode => ({ name, displayName: missing ? null : name, kind: missing ? null : "service", system: null, missing, distance });

// store-web → checkout-api → payments-gateway (declared and through the payments API) and → ghost (no record).
const graph: ComponentGraph = {
  root: "checkout-api",
  depth: 1,
  direction: "both",
  nodes: [node("checkout-api", 0), node("payments-gateway", 1), node("ghost", 1, true), node("store-web", 1)],
  edges: [
    { from: "checkout-api", to: "payments-gateway", kind: "dependsOn", api: null },
    { from: "checkout-api", to: "ghost", kind: "dependsOn", api: null },
    { from: "checkout-api", to: "payments-gateway", kind: "consumesApi", api: "payments" },
    { from: "store-web", to: "checkout-api", kind: "dependsOn", api: null },
  ],
  truncated: false,
  blastRadius: 1,
};

describe("the graph made ready to draw", () => {
  it("merges a declared dependency and a consumed API between the same two components into one labelled arrow", () => {
    expect(mergeEdges(graph).map((e) => [e.id, e.label])).toEqual([
      ["checkout-api>payments-gateway", "depends on + API payments"],
      ["checkout-api>ghost", "depends on"],
      ["store-web>checkout-api", "depends on"],
    ]);
  });

  it("places what depends on the root above it and what it depends on below, nodes not overlapping", () => {
    const { nodes } = layoutGraph(graph);
    const at = new Map(nodes.map((n) => [n.node.name, n]));
    expect(nodes.filter((n) => n.root).map((n) => n.node.name)).toEqual(["checkout-api"]);
    expect(at.get("store-web")!.y).toBeLessThan(at.get("checkout-api")!.y);
    expect(at.get("payments-gateway")!.y).toBeGreaterThan(at.get("checkout-api")!.y);
    for (const a of nodes) for (const b of nodes) if (a !== b) expect(Math.abs(a.x - b.x) >= NODE_WIDTH || Math.abs(a.y - b.y) >= NODE_HEIGHT, `${a.node.name} / ${b.node.name}`).toBe(true);
  });

  it("lists the same relations as text, each node with what it depends on and what depends on it", () => {
    const text = relationsAsText(graph);
    expect(text.map((t) => t.node.name)).toEqual(["checkout-api", "payments-gateway", "ghost", "store-web"]);
    expect(text[0].dependsOn).toEqual([
      { name: "payments-gateway", missing: false, label: "depends on + API payments" },
      { name: "ghost", missing: true, label: "depends on" },
    ]);
    expect(text[0].usedBy).toEqual([{ name: "store-web", missing: false, label: "depends on" }]);
    expect(text[2].usedBy.map((n) => n.name)).toEqual(["checkout-api"]);
  });

  it("says the blast radius in words", () => {
    expect(blastRadiusSentence("inventory", 0)).toBe("No component depends on inventory: a change that breaks it reaches no other component.");
    expect(blastRadiusSentence("inventory", 1)).toMatch(/^1 component depends on inventory, directly or through others/);
    expect(blastRadiusSentence("inventory", 12)).toMatch(/^12 components depend on inventory, directly or through others: .* all of them\.$/);
  });
});

const NAMES = ["a", "b", "c", "d", "e", "f"];

describe("the layout of any neighbourhood, property-tested", () => {
  it("places every node once, draws every pair once, and lists each arrow from both of its ends", () => {
    const declared = fc.dictionary(fc.constantFrom(...NAMES), fc.uniqueArray(fc.constantFrom(...NAMES, "ghost"), { maxLength: 3 }));
    fc.assert(
      fc.property(declared, fc.integer({ min: 1, max: 3 }), fc.constantFrom("up" as const, "down" as const, "both" as const), (deps, depth, direction) => {
        const index = new RelationIndex();
        index.sync(Object.entries(deps).map(([name, dependsOn]) => ({ name, file: `${name}.yaml`, component: validComponent(name, { dependsOn: dependsOn.filter((d) => d !== name) }) })));
        for (const root of Object.keys(deps)) {
          const g = index.graph(root, depth, direction)!;
          const layout = layoutGraph(g);
          expect(layout.nodes.map((n) => n.node.name)).toEqual(g.nodes.map((n) => n.name));
          for (const n of layout.nodes) expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true);
          expect(new Set(layout.edges.map((e) => e.id)).size).toBe(layout.edges.length);
          expect(layout.edges.length).toBe(new Set(g.edges.map((e) => `${e.from}>${e.to}`)).size);
          const text = relationsAsText(g);
          const listed = text.reduce((sum, t) => sum + t.dependsOn.length + t.usedBy.length, 0);
          expect(listed).toBe(2 * layout.edges.length);
        }
      }),
      fuzzParameters(20),
    );
  });
});
