/**
 * Budgets of the property and fuzz tests (fast-check). Every property runs fuzzRuns(n) generated
 * cases: its small default n, what CI runs, or FUZZ_RUNS when set, to search longer
 * (`FUZZ_RUNS=5000 npx vitest run <file>`). FUZZ_SEED replays a run: fast-check prints the seed
 * (and path) of a failure.
 */
export function fuzzRuns(defaultRuns: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  return process.env.FUZZ_RUNS && Number.isInteger(runs) && runs > 0 ? runs : defaultRuns;
}

/** The FUZZ_SEED to replay, if set. */
export function fuzzSeed(): number | undefined {
  const seed = Number(process.env.FUZZ_SEED);
  return process.env.FUZZ_SEED && Number.isInteger(seed) ? seed : undefined;
}

/** fast-check parameters of a property: fuzzRuns(defaultRuns) cases, from FUZZ_SEED when set. */
export function fuzzParameters(defaultRuns: number): { numRuns: number; seed?: number } {
  const seed = fuzzSeed();
  return seed === undefined ? { numRuns: fuzzRuns(defaultRuns) } : { numRuns: fuzzRuns(defaultRuns), seed };
}
