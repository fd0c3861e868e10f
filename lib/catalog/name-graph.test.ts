import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdGraph } from "./name-graph";

const graphOf = (size: number, pairs: Array<[number, number]>) => IdGraph.build(size, pairs.map(([from]) => from), pairs.map(([, to]) => to));

describe("a graph of integer ids", () => {
  it("counts what a node reaches, itself excluded, through chains and cycles", () => {
    const graph = graphOf(6, [[0, 1], [0, 2], [1, 2], [1, 0], [2, 3], [4, 0]]);
    expect(graph.reachableCount(0)).toBe(3);
    expect(graph.reachableCount(3)).toBe(0);
    expect(graph.reachableCount(4)).toBe(4);
    expect(graph.reachableCount(5)).toBe(0);
    expect(graph.reachableCount(6)).toBe(0);
  });

  it("agrees with a naive closure on any graph", () => {
    const node = fc.integer({ min: 0, max: 30 });
    fc.assert(
      fc.property(fc.array(fc.tuple(node, node), { maxLength: 120 }), node, (pairs, start) => {
        // Grow the set of reached nodes until no edge adds one.
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
        const expected = reached.size;
        expect(graphOf(31, pairs).reachableCount(start)).toBe(expected);
      }),
    );
  });
});
