/**
 * Names in code-unit order, lazily. A hub that 100,000 records depend on lists its first few dependents
 * (a page shows 50, a graph stops at its node bound): a full sort of all of them cost more than everything
 * else on the page. A big set is made a heap (linear) and popped only as far as the reader goes.
 */
const before = (a: string, b: string) => a < b;
/** At or under this many names a plain sort is cheaper than a heap. */
const SORT_ALL_UP_TO = 64;

export function* inNameOrder(names: Iterable<string>, without?: string): Generator<string, void, undefined> {
  const heap: string[] = [];
  for (const n of names) if (n !== without) heap.push(n);
  if (heap.length <= SORT_ALL_UP_TO) {
    yield* heap.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return;
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  while (heap.length) {
    const first = heap[0];
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      siftDown(heap, 0);
    }
    yield first;
  }
}

/** The first `count` names in order. */
export function firstInNameOrder(names: Iterable<string>, count: number, without?: string): string[] {
  const out: string[] = [];
  if (count <= 0) return out;
  for (const n of inNameOrder(names, without)) {
    out.push(n);
    if (out.length === count) break;
  }
  return out;
}

function siftDown(heap: string[], at: number): void {
  const n = heap.length;
  const value = heap[at];
  for (;;) {
    let child = 2 * at + 1;
    if (child >= n) break;
    if (child + 1 < n && before(heap[child + 1], heap[child])) child++;
    if (!before(heap[child], value)) break;
    heap[at] = heap[child];
    at = child;
  }
  heap[at] = value;
}
