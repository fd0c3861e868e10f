import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@\//, replacement: fileURLToPath(new URL("./", import.meta.url)) },
      // Tests run server modules outside React's server environment: "server-only" resolves to the
      // empty module the react-server condition gives it, so no test has to mock it.
      { find: /^server-only$/, replacement: fileURLToPath(new URL("./node_modules/server-only/empty.js", import.meta.url)) },
    ],
  },
  test: {
    include: ["**/*.test.{ts,tsx}"],
    exclude: ["e2e/**", ".next/**", ".data/**", "node_modules/**", "dist/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: PGlite instances are memory-hungry, keep the pool small.
    maxWorkers: 2,
  },
});
