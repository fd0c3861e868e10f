import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// The layers of docs/decisions/2026-11-23-portal-layers-and-services.md:
//   app → components → lib/portal → lib/catalog → lib/scm → bottom (lib/db, lib/events, lib/env.ts, lib/mutex.ts, lib/secrets.ts)
//   lib/portal → lib/offers-client → lib/offers/contract/ (the shared API contract only)
//   lib/offers stands alone (it may use the bottom layer).
// import/no-restricted-paths matches the RESOLVED file (through the TypeScript resolver eslint-config-next
// configures), so "@/lib/…" aliases and relative imports are caught alike.
const bottom = ["lib/db", "lib/events", "lib/env.ts", "lib/errors.ts", "lib/mutex.ts", "lib/secrets.ts"];
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
    from: ["lib/db", "lib/portal/db", "lib/portal/services.ts", "lib/portal/authorize.ts", "lib/portal/testing.ts"],
    message: "components never open the database or the portal's services: the page (app/) passes data, or calls lib/portal.",
  },
];
const rule = (list) => ["error", { zones: list.map(({ testsMay: _testsMay, ...zone }) => zone) }];

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
];
export default config;
