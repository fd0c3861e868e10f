/**
 * Isolated databases for tests: PGlite in memory, or a fresh PostgreSQL database per call on the
 * TEST_DATABASE_URL server (dropped on close), so parallel files and runs never collide.
 *
 * Migrate once: every test database starts from a migrated template of its migrations, built once
 * per content of the migrations folder (tests/setup/database-templates.ts builds them before a run;
 * a set no run built is built on first use) and kept: a PGlite dump (a tar) under
 * node_modules/.cache/test-databases, a template database `tpl_…` on PostgreSQL. Opening then
 * finds every migration applied.
 */
import { createHash, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type MigrationSet, type OpenDatabaseOptions } from "../../lib/db";

export type TestDatabaseTarget = "pglite" | "postgres";

/**
 * The database an ordinary database-backed test runs on: PostgreSQL when TEST_DATABASE_URL is set
 * (CI), PGlite otherwise. TEST_ALL_DATABASES=1 runs every suite on both.
 */
export function primaryTestDatabase(): TestDatabaseTarget {
  return process.env.TEST_DATABASE_URL ? "postgres" : "pglite";
}

/** The targets of an ordinary database-backed suite: the primary one (both with TEST_ALL_DATABASES=1). */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  return process.env.TEST_ALL_DATABASES === "1" ? contractDatabaseTargets() : [primaryTestDatabase()];
}

/**
 * The targets of a contract suite, whose behaviour could differ between the engines (the data
 * layer, locking, ordering, transactions): PGlite, plus PostgreSQL when TEST_DATABASE_URL is set.
 */
export function contractDatabaseTargets(): TestDatabaseTarget[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** A short hash of the table name and every file of the migrations folder: a changed migration is a new template. */
export function migrationsKey(set: MigrationSet): string {
  const hash = createHash("sha256").update(set.migrationsTable);
  for (const file of filesUnder(set.migrationsDir).sort()) hash.update(path.relative(set.migrationsDir, file)).update("\0").update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

const templatesDir = () => process.env.TEST_TEMPLATES_DIR ?? path.join(process.cwd(), "node_modules", ".cache", "test-databases");
const templateName = (set: MigrationSet) => `${set.migrationsTable.replace(/[^a-z0-9]+/gi, "")}-${migrationsKey(set)}`;

/**
 * The migrated PGlite template of `set`: the dump (a tar) of a data directory, built once in
 * memory and kept. Two workers building at once each write their own; the last rename wins.
 */
export async function pgliteTemplate(set: MigrationSet): Promise<string> {
  const root = templatesDir();
  const dump = path.join(root, `${templateName(set)}.tar`);
  if (existsSync(dump)) return dump;
  mkdirSync(root, { recursive: true });
  const client = await PGlite.create();
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: set.migrationsDir, migrationsTable: set.migrationsTable, migrationsSchema: "public" });
    const building = `${dump}.building-${randomBytes(4).toString("hex")}`;
    writeFileSync(building, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    renameSync(building, dump);
  } finally {
    await client.close();
  }
  return dump;
}

const dumpsInMemory = new Map<string, Promise<Blob>>();

/** The template's dump, read once per process: what an in-memory PGlite starts from (`loadDataDir`). */
export function pgliteTemplateDump(set: MigrationSet): Promise<Blob> {
  const key = templateName(set);
  let dump = dumpsInMemory.get(key);
  if (!dump) {
    dump = pgliteTemplate(set).then((file) => new Blob([readFileSync(file)]));
    dumpsInMemory.set(key, dump);
  }
  return dump;
}

/**
 * Fills an empty PGlite data directory (`dir`, e.g. a service's DATA_DIR/offers) with the migrated
 * template of `set`, so the service that opens it finds its migrations applied.
 */
export async function seedPgliteDataDir(dir: string, set: MigrationSet): Promise<void> {
  if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`${dir} is not empty: a template fills only an empty data directory`);
  const dump = await pgliteTemplate(set);
  mkdirSync(dir, { recursive: true });
  // The dump is a plain tar of the data directory (its members start with "/": tar strips that).
  execFileSync("tar", ["-xf", dump, "-C", dir], { stdio: ["ignore", "ignore", "pipe"] });
}

/**
 * The migrated template database of `set` on the server of `base`, built once under an advisory
 * lock and marked complete by its comment (a build that died half-way is dropped and redone).
 */
async function postgresTemplate(base: string, set: MigrationSet): Promise<string> {
  const name = `tpl_${templateName(set).replace("-", "_")}`.toLowerCase();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const complete = async () =>
      (await admin.query<{ ok: boolean }>("select shobj_description(oid, 'pg_database') = 'migrated' as ok from pg_database where datname = $1", [name])).rows[0]?.ok === true;
    if (await complete()) return name;
    await admin.query("select pg_advisory_lock(hashtext($1))", [name]);
    try {
      if (await complete()) return name;
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.query(`create database "${name}"`);
      const url = new URL(base);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ url: url.toString(), schema: {}, migrationsDir: set.migrationsDir, migrationsTable: set.migrationsTable, poolSize: 1 });
      await handle.close();
      await admin.query(`comment on database "${name}" is 'migrated'`);
      return name;
    } finally {
      await admin.query("select pg_advisory_unlock(hashtext($1))", [name]).catch(() => {});
    }
  } finally {
    await admin.end();
  }
}

/** Builds the templates of `sets` (PGlite always, PostgreSQL when TEST_DATABASE_URL is set): once before a test run. */
export async function prepareTestDatabaseTemplates(sets: MigrationSet[]): Promise<void> {
  for (const set of sets) {
    await pgliteTemplate(set);
    if (process.env.TEST_DATABASE_URL) await postgresTemplate(process.env.TEST_DATABASE_URL, set);
  }
}

export interface TestDatabase<TSchema extends Record<string, unknown>> extends DatabaseHandle<TSchema> {
  /** The PostgreSQL URL of this database (postgres target only), e.g. to start a second process on it. */
  url?: string;
}

export interface ScratchPostgresOptions {
  /** A URL of the server to create it on (its database is only where to connect to create and drop); default TEST_DATABASE_URL. */
  serverUrl?: string;
  /** The start of its name, so a leftover says what made it; default "t". */
  prefix?: string;
  /** Start from the migrated template of these migrations instead of an empty database. */
  template?: MigrationSet;
}

/**
 * Creates a PostgreSQL database on the TEST_DATABASE_URL server (or `serverUrl`), empty or from the
 * migrated template of `template`; answers its URL and a drop function.
 */
export async function createScratchPostgres(options: ScratchPostgresOptions = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = options.serverUrl ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const run = process.env[TEST_DATABASE_RUN];
  const name = `${options.prefix ?? "t"}_${run ? `${run}_` : ""}${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const from = options.template ? ` template "${await postgresTemplate(base, options.template)}"` : "";
    // A template is refused while another session is still on it (the builder's, closing): retry briefly.
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`create database "${name}"${from}`);
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006" || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // Within a run the drop waits for the run's end (dropRunDatabases): PostgreSQL checkpoints on
    // every DROP DATABASE, seconds each on a busy machine; the drops at the end share checkpoints.
    drop: run ? async () => undefined : () => dropDatabases(base, [name]),
  };
}

/** Drops databases, a few at a time: concurrent drops wait for the same checkpoint. */
async function dropDatabases(serverUrl: string, names: string[], concurrency = 1): Promise<void> {
  const queue = [...names];
  const worker = async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await c.query(`drop database if exists "${name}" with (force)`);
    } finally {
      await c.end();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
}

/**
 * The environment variable naming the test run whose scratch databases are dropped at its end
 * (set by the tiers' globalSetup, inherited by the workers); unset, each is dropped on close.
 */
export const TEST_DATABASE_RUN = "TEST_DATABASE_RUN";

/** A new run tag: when it started (so leftovers of an interrupted run can be told by age) and a random part. */
export function newTestDatabaseRun(): string {
  return `r${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
}

/**
 * Drops the scratch databases of `run` on the TEST_DATABASE_URL server, and those of runs that
 * started more than `staleAfterMs` ago (an interrupted run never dropped its own).
 */
export async function dropRunDatabases(run: string, staleAfterMs = 12 * 3600_000): Promise<void> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return;
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  let names: string[];
  try {
    const rows = (await c.query<{ datname: string }>("select datname from pg_database where datname ~ '_r[0-9a-z]{8}[0-9a-f]{4}_'")).rows;
    names = rows
      .map((r) => r.datname)
      .filter((name) => {
        const tag = /_(r([0-9a-z]{8})[0-9a-f]{4})_/.exec(name);
        return tag !== null && (tag[1] === run || Date.now() - parseInt(tag[2], 36) > staleAfterMs);
      });
  } finally {
    await c.end();
  }
  await dropDatabases(base, names, 6);
}

export async function openTestDatabase<TSchema extends Record<string, unknown>>(
  target: TestDatabaseTarget,
  options: Omit<OpenDatabaseOptions<TSchema>, "url" | "dataDir">,
): Promise<TestDatabase<TSchema>> {
  const template = { migrationsDir: options.migrationsDir, migrationsTable: options.migrationsTable };
  if (target === "pglite") return openDatabase({ ...options, loadDataDir: await pgliteTemplateDump(template) });
  const scratch = await createScratchPostgres({ template });
  const handle = await openDatabase({ ...options, url: scratch.url, poolSize: 5 });
  return {
    ...handle,
    url: scratch.url,
    close: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}
