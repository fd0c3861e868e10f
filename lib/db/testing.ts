/**
 * Isolated databases for tests: PGlite in memory always, and a fresh PostgreSQL database per call
 * when TEST_DATABASE_URL is set (dropped on close), so parallel files and runs never collide.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type OpenDatabaseOptions } from "./index";

export type TestDatabaseTarget = "pglite" | "postgres";

/** The targets this run covers: PGlite, plus PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabaseTargets(): TestDatabaseTarget[] {
  return process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];
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
}

/** Creates an empty PostgreSQL database on the TEST_DATABASE_URL server (or `serverUrl`); answers its URL and a drop function. */
export async function createScratchPostgres(options: ScratchPostgresOptions = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = options.serverUrl ?? process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${options.prefix ?? "t"}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function openTestDatabase<TSchema extends Record<string, unknown>>(
  target: TestDatabaseTarget,
  options: Omit<OpenDatabaseOptions<TSchema>, "url" | "dataDir">,
): Promise<TestDatabase<TSchema>> {
  if (target === "pglite") return openDatabase(options);
  const scratch = await createScratchPostgres();
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
