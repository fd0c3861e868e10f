/**
 * A directed graph over integer ids, changed one edge at a time: each node's successors in a plain array.
 * The relation index keeps one beside its named edges and moves only a changed record's edges, so a walk
 * over the whole catalog (the blast radius of a platform service most records depend on) needs no graph
 * built first: no string hashing per step, one byte per node to mark it seen.
 */
export class IdGraph {
  /** Successors of node i (absent: none). */
  private readonly successors: (number[] | undefined)[] = [];
  /** One more than the highest id an edge has touched: the size of a walk's seen marks. */
  private nodes = 0;

  addEdge(from: number, to: number): void {
    (this.successors[from] ??= []).push(to);
    this.nodes = Math.max(this.nodes, from + 1, to + 1);
  }

  /** Removes one edge from `from` to `to` (one of them, when added more than once); the order of successors is not kept. */
  removeEdge(from: number, to: number): void {
    const list = this.successors[from];
    if (!list) return;
    const at = list.lastIndexOf(to);
    if (at < 0) return;
    list[at] = list[list.length - 1];
    list.pop();
    if (!list.length) this.successors[from] = undefined;
  }

  /** How many nodes `start` reaches for which `counted` holds, itself excluded (even through a cycle). */
  reachableCount(start: number, counted: (node: number) => boolean = () => true): number {
    if (start < 0 || start >= this.nodes) return 0;
    const seen = new Uint8Array(this.nodes);
    // A node is pushed once (when first seen): the stack never holds more than every node.
    const stack = new Int32Array(this.nodes);
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    let count = 0;
    while (top) {
      const list = this.successors[stack[--top]];
      if (!list) continue;
      for (let k = 0; k < list.length; k++) {
        const next = list[k];
        if (seen[next]) continue;
        seen[next] = 1;
        if (counted(next)) count++;
        stack[top++] = next;
      }
    }
    return count;
  }
}
