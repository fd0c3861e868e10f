/**
 * Preloaded into the offers instances of bench/sse/run.ts (node --expose-gc --require …): answers
 * "memory" on the IPC channel with process.memoryUsage() after a full collection, so that the bench
 * reads the heap of each instance, not only its RSS.
 */
process.on("message", (message) => {
  if (message !== "memory") return;
  globalThis.gc?.();
  process.send?.({ memory: process.memoryUsage() });
});
