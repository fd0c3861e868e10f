import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers of docs/decisions/2026-11-23-portal-layers-and-services.md:
//   app → components → lib/portal → lib/catalog → lib/scm → bottom (lib/db, lib/events, lib/env/, lib/mutex.ts, lib/secrets.ts)
//   lib/portal → lib/offers-client → lib/offers/contract/ (the shared API contract only)
//   lib/offers stands alone (it may use the bottom layer).
// import/no-restricted-paths matches the RESOLVED file (through the TypeScript resolver eslint-config-next
// configures), so "@/lib/…" aliases and relative imports are caught alike.
const bottom = ["lib/db", "lib/events", "lib/env", "lib/errors.ts", "lib/mutex.ts", "lib/secrets.ts"];
const upper = ["lib/portal", "lib/catalog", "lib/scm", "lib/offers-client", "lib/offers"];
const ui = ["app", "components"];

/** `testsMay: true` zones do not apply to test files (a test may drive a layer through another). */
const zones = [
  { target: "lib", from: ui, message: "lib never imports app or components." },
  { target: "components", from: "app", message: "components never import app: a page passes data down." },
  { target: bottom, from: upper, message: "The bottom layer (db, events, env, mutex, secrets) imports no domain module." },
  { target: "lib/scm", from: ["lib/catalog", "lib/portal", "lib/offers-client", "lib/offers"], message: "lib/scm sits below lib/catalog and lib/portal." },
  { target: "lib/catalog", from: ["lib/portal", "lib/offers-client", "lib/offers"], message: "lib/catalog sits below lib/portal (it may use lib/scm)." },
  { target: "lib/offers-client", from: ["lib/portal", "lib/catalog", "lib/scm"], message: "lib/offers-client sits below lib/portal." },
  { target: "lib/offers-client", from: "lib/offers", except: ["./contract"], testsMay: true, message: "lib/offers-client uses only the API contract of lib/offers (lib/offers/contract/)." },
  { target: "lib/offers", from: ["lib/portal", "lib/catalog", "lib/scm"], message: "lib/offers stands alone." },
  { target: "lib/offers", from: "lib/offers-client", testsMay: true, message: "lib/offers stands alone (its tests may drive it through the client)." },
  { target: ["app", "components", "lib/portal", "lib/catalog", "lib/scm"], from: "lib/offers", message: "The portal reaches the offers service's contract through lib/offers-client (lib/offers-client/schemas.ts)." },
  {
    target: "components",
    from: ["lib/db", "lib/portal/db", "lib/portal/services.ts", "lib/portal/authorize.ts"],
    message: "components never open the database or the portal's services: the page (app/) passes data, or calls lib/portal.",
  },
  {
    // What the production bundles are built from (next build: app/, components/, lib/ and the root files; the offers bundle:
    // lib/offers and the bottom layer) never imports test support, so none of it can ship.
    target: ["app", "components", "lib", "scripts", "instrumentation.ts", "proxy.ts"],
    from: "test-support",
    testsMay: true,
    message: "Production code never imports test-support/ (only tests, e2e/, bench/ and tests/setup do).",
  },
];
const rule = (list) => ["error", { zones: list.map(({ testsMay: _testsMay, ...zone }) => zone) }];

// Production files stay under 400 lines of code (tests and test support are exempt). A file that is over and must stay
// gets its own ceiling below, at about its size, with the reason on its line; it warns again if it grows.
const maxLines = (max) => ["warn", { max, skipBlankLines: true, skipComments: true }];
const longFiles = [
  // One class: load, index, refresh and write-back share the repository's lock and the state they serve.
  ["lib/catalog/catalog.ts", 500],
  // Ordering, replay, displacement and stale detection act on one connection's state; together their invariants read at once.
  ["lib/offers/sse/hub.ts", 460],
  // RepoGit is one thin wrapper per git plumbing command over one repository: splitting would scatter a flat list.
  ["lib/scm/git.ts", 410],
  // The index and what every query of one of its states shares (Prepared) are one data structure.
  ["lib/catalog/search.ts", 410],
];

const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "dist/**", ".data/**", "node_modules/**", "next-env.d.ts", "test-results/**", "playwright-report/**", "**/generated/**"] },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  { files: ["**/*.{ts,tsx,js,mjs}"], rules: { "import/no-restricted-paths": rule(zones) } },
  {
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    ignores: ["components/ui/link.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "next/link", message: "Use Link from @/components/ui/link: it does not prefetch pages that render per request." }] },
      ],
    },
  },
  { files: ["**/*.test.{ts,tsx}"], rules: { "import/no-restricted-paths": rule(zones.filter((z) => !z.testsMay)) } },
  {
    // The offers service (its bundle, tsx in development, the CLI) and drizzle-kit load these under plain Node, where
    // "server-only" throws; the browser never gets them anyway (layers above).
    files: ["lib/offers/**/*.ts", "lib/db/**/*.ts", "lib/events/**/*.ts", "lib/env/**/*.ts", "lib/*.ts", "lib/portal/db/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "server-only", message: "This module also runs under plain Node (the offers service, drizzle-kit), where server-only throws." }] },
      ],
    },
  },
  { files: ["**/*.{ts,tsx,js,mjs}"], rules: { "max-lines": maxLines(400) } },
  ...longFiles.map(([file, max]) => ({ files: [file], rules: { "max-lines": maxLines(max) } })),
  { files: ["**/*.test.{ts,tsx}", "test-support/**", "e2e/**", "bench/**", "tests/**"], rules: { "max-lines": "off" } },
];
export default config;
