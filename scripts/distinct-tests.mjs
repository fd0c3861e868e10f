#!/usr/bin/env node
// Counts the distinct tests in a `vitest list --json=FILE` answer: a test that runs once per database
// ("… on pglite > …", "… (postgres) > …") counts once. CI's "passed" figure counts every run of it.
// Usage: TEST_DATABASE_URL=… npx vitest list --json=/tmp/list.json && node scripts/distinct-tests.mjs /tmp/list.json [older.json]
import { readFileSync } from "node:fs";

const databaseLabel = /\s*\((?:pglite|postgres|postgresql)\)|\b(?:on )?(?:pglite|postgres|postgresql)(?=\s*>)/gi;

function distinctNames(file) {
  const listed = JSON.parse(readFileSync(file, "utf8"));
  return { listed: listed.length, names: new Set(listed.map((test) => test.name.replace(databaseLabel, ""))) };
}

const [current, older] = process.argv.slice(2);
if (!current) {
  console.error("usage: node scripts/distinct-tests.mjs <vitest-list.json> [older-vitest-list.json]");
  process.exit(2);
}
const now = distinctNames(current);
console.log(`${current}: ${now.listed} listed, ${now.names.size} distinct`);
if (older) {
  const before = distinctNames(older);
  console.log(`${older}: ${before.listed} listed, ${before.names.size} distinct`);
  const gone = [...before.names].filter((name) => !now.names.has(name)).sort();
  console.log(`${gone.length} names of the older list are not in the current one (renamed or removed):`);
  for (const name of gone) console.log(`  - ${name}`);
}
