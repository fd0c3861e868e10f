import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

// Three tiers, told apart by the file name (docs/architecture.md, "Tests"):
//   unit         *.test.ts(x)              pure code and jsdom: no database, no Redis, no child process
//                                          (projects "unit" for *.test.ts and "unit-dom" for *.test.tsx)
//   integration  *.integration.test.ts(x)  a database (PGlite or PostgreSQL), Redis or a git repository on disk
//   system       *.system.test.ts(x)       starts processes: the built service, throwaway servers, faults, kills
// `npm test` runs all three and the browser journeys; `npm run test:unit` (or :integration, :system) one tier.
const always = ["e2e/**", ".next/**", ".data/**", "node_modules/**", "dist/**"];

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
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: PGlite instances are memory-hungry, keep the pool small.
    maxWorkers: 2,
    projects: [
      // The unit tier is two projects: plain modules (node) and rendered components (jsdom). A plain module's file
      // gets a fresh module graph: shared ones failed in an order CI met, with settings read at import time.
      {
        extends: true,
        test: {
          name: "unit",
          // Threads start and import faster than forked processes: about a quarter less CPU for this tier.
          pool: "threads",
          include: ["**/*.test.ts"],
          exclude: [...always, "**/*.integration.test.ts", "**/*.system.test.ts"],
          setupFiles: ["tests/setup/unit-tier.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "unit-dom",
          pool: "threads",
          // The files of a worker share one module graph: jsdom, React and Testing Library are imported once, and the
          // tier runs in about 0.6 of the time. Each file still gets its own jsdom; the setup file cleans up after each test.
          isolate: false,
          include: ["**/*.test.tsx"],
          exclude: [...always, "**/*.integration.test.tsx", "**/*.system.test.tsx"],
          setupFiles: ["tests/setup/unit-tier.ts", "tests/setup/rendered-components.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.integration.test.{ts,tsx}"],
          exclude: always,
          globalSetup: ["tests/setup/database-templates.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: ["**/*.system.test.{ts,tsx}"],
          exclude: always,
          globalSetup: ["tests/setup/database-templates.ts", "tests/setup/built-service.ts"],
        },
      },
    ],
  },
});
