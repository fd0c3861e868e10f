/**
 * A directed graph over integer ids in flat arrays (compressed sparse rows). A walk over the whole catalog
 * (the blast radius of a platform service most records depend on) then costs milliseconds instead of
 * hundreds: no string hashing per step, one byte per node to mark it seen. The relation index builds one
 * from the ids it keeps per record and drops it on its next change.
 */
export class IdGraph {
  private constructor(
    /** Edges of node i are targets[offsets[i] .. offsets[i + 1]). */
    private readonly offsets: Int32Array,
    private readonly targets: Int32Array,
  ) {}

  /** The graph over nodes 0 … size − 1 with an edge from `from[i]` to `to[i]` for each i. */
  static build(size: number, from: readonly number[], to: readonly number[]): IdGraph {
    const offsets = new Int32Array(size + 1);
    for (const f of from) offsets[f + 1]++;
    for (let i = 0; i < size; i++) offsets[i + 1] += offsets[i];
    const targets = new Int32Array(from.length);
    const filled = offsets.slice(0, size);
    for (let i = 0; i < from.length; i++) targets[filled[from[i]]++] = to[i];
    return new IdGraph(offsets, targets);
  }

  /** How many nodes `start` reaches, itself excluded (even through a cycle). */
  reachableCount(start: number): number {
    const { offsets, targets } = this;
    if (start < 0 || start >= offsets.length - 1) return 0;
    const seen = new Uint8Array(offsets.length - 1);
    const stack = [start];
    seen[start] = 1;
    let count = 0;
    while (stack.length) {
      const node = stack.pop()!;
      for (let k = offsets[node]; k < offsets[node + 1]; k++) {
        const next = targets[k];
        if (seen[next]) continue;
        seen[next] = 1;
        count++;
        stack.push(next);
      }
    }
    return count;
  }
}
