/** Builds dist/offers and .next when missing or older than the code (scripts/build-if-stale.mjs). */
export declare function buildIfStale(): void;
export default buildIfStale;
