import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdGraph } from "./name-graph";

const graphOf = (pairs: Array<[number, number]>) => {
  const graph = new IdGraph();
  for (const [from, to] of pairs) graph.addEdge(from, to);
  return graph;
};

/** What `start` reaches through `pairs`, itself excluded: grown until no edge adds a node. */
function naiveReach(pairs: ReadonlyArray<readonly [number, number]>, start: number): Set<number> {
  const reached = new Set<number>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [from, to] of pairs) {
      if ((from !== start && !reached.has(from)) || reached.has(to)) continue;
      reached.add(to);
      grew = true;
    }
  }
  reached.delete(start);
  return reached;
}

describe("a graph of integer ids", () => {
  it("counts what a node reaches, itself excluded, through chains and cycles", () => {
    const graph = graphOf([[0, 1], [0, 2], [1, 2], [1, 0], [2, 3], [4, 0]]);
    expect(graph.reachableCount(0)).toBe(3);
    expect(graph.reachableCount(3)).toBe(0);
    expect(graph.reachableCount(4)).toBe(4);
    expect(graph.reachableCount(5)).toBe(0);
    expect(graph.reachableCount(60)).toBe(0);
  });

  it("counts only the nodes asked for, walking through the others", () => {
    // 0 → 1 → 2 → 3: the odd nodes are passed through, not counted.
    const graph = graphOf([[0, 1], [1, 2], [2, 3], [3, 4]]);
    expect(graph.reachableCount(0, (n) => n % 2 === 0)).toBe(2);
  });

  it("forgets a removed edge, one of two equal ones at a time", () => {
    const graph = graphOf([[0, 1], [0, 1], [1, 2]]);
    graph.removeEdge(0, 1);
    expect(graph.reachableCount(0)).toBe(2);
    graph.removeEdge(0, 1);
    expect(graph.reachableCount(0)).toBe(0);
    graph.removeEdge(0, 1);
    graph.removeEdge(7, 8);
    expect(graph.reachableCount(1)).toBe(1);
  });

  it("agrees with a naive closure after any edges added and removed", () => {
    const node = fc.integer({ min: 0, max: 30 });
    const step = fc.tuple(fc.boolean(), node, node);
    fc.assert(
      fc.property(fc.array(step, { maxLength: 160 }), node, (steps, start) => {
        const graph = new IdGraph();
        const edges: Array<[number, number]> = [];
        for (const [add, from, to] of steps) {
          if (add) {
            graph.addEdge(from, to);
            edges.push([from, to]);
          } else {
            graph.removeEdge(from, to);
            const at = edges.findIndex(([f, t]) => f === from && t === to);
            if (at >= 0) edges.splice(at, 1);
          }
        }
        expect(graph.reachableCount(start)).toBe(naiveReach(edges, start).size);
      }),
    );
  });
});
