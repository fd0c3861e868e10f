/**
 * Variables of the tests, the build and the start scripts: no service reads them, so no service parses them. They are
 * declared here so that the settings reference lists them and the source scan (declared-variables.test.ts) knows
 * them; the code that reads them keeps its own fallbacks (test-support/db/test-databases.ts, test-support/fuzz.ts, scripts/, e2e/).
 */
import { z } from "zod";
import { flag, integer, optionalUrl, port } from "./fields";

export const toolingSchema = z.object({
  TEST_DATABASE_URL: optionalUrl().describe(
    "PostgreSQL server for tests: ordinary suites run on it instead of PGlite, contract suites on both; each test database is a copy of a migrated template `tpl_…`, dropped at the end of the run. Unset: PGlite only. Example: `postgres://postgres@127.0.0.1:5432/test`.",
  ),
  TEST_ALL_DATABASES: flag().describe("`1`: every database-backed suite runs on PGlite and on `TEST_DATABASE_URL`. Example: `1`."),
  TEST_TEMPLATES_DIR: z
    .string()
    .default("node_modules/.cache/test-databases")
    .describe("Where the migrated PGlite templates of the tests are kept. Example: `/tmp/test-databases`."),
  TEST_DATABASE_RUN: z
    .string()
    .optional()
    .describe("Set by the test run itself (`tests/setup/database-templates.ts`): tags the run's PostgreSQL test databases so they are dropped together at its end. Never set it by hand. Example: `run_1733512345_ab12`."),
  TEST_REDIS_URL: optionalUrl().describe(
    "Redis for the event-bus and cross-instance tests, and for the browser journeys' servers (each with its own `REDIS_PREFIX`). Unset: those tests skip or run in-process. Example: `redis://127.0.0.1:6379`.",
  ),
  FUZZ_RUNS: integer(1)
    .optional()
    .describe("Cases per property of the property and fuzz tests. Unset: each test's small budget, what CI runs. Example: `5000`."),
  FUZZ_SEED: z.coerce.number().int().optional().describe("Replays a property run from the seed fast-check printed. Example: `-1283712`."),
  HARNESS_TIMING: flag().describe("Prints the stage timings of the config repository's crash harness (`test-support/portal/crash-harness.ts`). Example: `1`."),
  CHROMIUM_PATH: z
    .string()
    .optional()
    .describe("Chromium for Playwright. Unset: `/usr/bin/chromium-headless-shell` when installed and the run is headless, else `/usr/bin/chromium`. Example: `/usr/bin/chromium`."),
  E2E_PORTAL_PORT: port()
    .default(3100)
    .describe("Base port of the browser journeys' portals: worker n listens on it plus 10·n (the GitLab journey's portal plus 5). Example: `3300`."),
  E2E_OFFERS_PORT: port().default(4100).describe("Base port of the browser journeys' offers services: worker n listens on it plus 10·n. Example: `4300`."),
  E2E_OFFERS_DB_TEMPLATE: z
    .string()
    .optional()
    .describe("Set by the journeys' global setup: the migrated PGlite template each worker's offers service starts from. Never set it by hand. Example: a directory under `node_modules/.cache`."),
  E2E_PORTAL_DB_TEMPLATE: z
    .string()
    .optional()
    .describe("Set by the journeys' global setup: the migrated PGlite template each worker's portal starts from. Never set it by hand. Example: a directory under `node_modules/.cache`."),
  PORTAL_BUILD_SKIP_TYPECHECK: flag().describe("`1`: `next build` skips its TypeScript pass (CI sets it: `npm run typecheck` runs beside the build). Example: `1`."),
  START_TIMEOUT_MS: integer(1, undefined, "milliseconds")
    .default(180_000)
    .describe("`npm start` only: a service that has not answered `/health` by then is named and the run ends non-zero (no deadline under `npm run dev`). Example: `300000`."),
});

export type ToolingEnv = z.infer<typeof toolingSchema>;
