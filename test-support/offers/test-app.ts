/**
 * Test helpers: an offers app on a fresh database (PGlite or PostgreSQL), a manual clock, a game
 * with known credentials, and JWT signing the way a game server does it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from "fastify";
import { sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { rowsOf } from "../../lib/db";
import { parseOffersEnv, type OffersEnv } from "../../lib/env/offers";
import { createScratchPostgres, type TestDatabase, type TestDatabaseTarget } from "../db/test-databases";
import { playerState } from "../../lib/offers/admin";
import { buildOffersApp, type OffersAppDeps } from "../../lib/offers/app";
import { ManualClock } from "../../lib/offers/clock";
import { runOffersCli } from "../../lib/offers/cli-commands";
import { FANOUT_CURSOR } from "../../lib/offers/delivery/feed";
import { offersMigrations, openOffersDatabase, type OffersDatabase, type OffersDatabaseHandle, type OffersSchema } from "../../lib/offers/db";
import { builtOffersServiceArgs } from "../built";
import { openOffersTestDatabase } from "./test-database";
import { freePort } from "../throwaway";

export interface TestGame {
  gameId: string;
  clientId: string;
  apiKey: string;
}

/** The credentials of game-a's test environment (its own clients; ./environments). */
export const TEST_ENVIRONMENT_CREDENTIALS = { clientId: "cl_test_client-a", apiKey: "ok_test_api-key-of-game-a-0123456789" };

export interface OffersTestContext {
  app: FastifyInstance;
  database: TestDatabase<OffersSchema>;
  clock: ManualClock;
  game: TestGame;
  /** The same game's test environment credentials. */
  testGame: TestGame;
  secretKey: string;
  /** Signs a game JWT at the clock's time (HS256 with the game's API key). */
  jwt(playerId: string, options?: { gameId?: string; apiKey?: string; ttlSeconds?: number }): Promise<string>;
  apiHeaders(game?: TestGame): Record<string, string>;
  /** POST with a JSON body; answers status and parsed body. */
  post(url: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function startOffersTestApp(target: TestDatabaseTarget, extra: Partial<OffersAppDeps> = {}): Promise<OffersTestContext> {
  const database = await openOffersTestDatabase(target);
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const secretKey = randomBytes(32).toString("hex");
  const app = await buildOffersApp({ database, secretKey, adminToken: "test-admin-token-0123456789", clock, checkResponses: true, ...extra });
  await app.ready();
  const created = await app.offers.games.createGame({ gameId: "game-a", name: "Game A", clientId: "client-a", apiKey: "api-key-of-game-a-0123456789", test: TEST_ENVIRONMENT_CREDENTIALS });
  const game: TestGame = { gameId: created.gameId, clientId: created.clientId, apiKey: created.apiKey };
  const testGame: TestGame = { gameId: created.gameId, ...TEST_ENVIRONMENT_CREDENTIALS };
  const jwt: OffersTestContext["jwt"] = (playerId, options = {}) => {
    const iat = Math.floor(clock.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setIssuer(options.gameId ?? game.gameId)
      .setSubject(playerId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + (options.ttlSeconds ?? 900))
      .sign(new TextEncoder().encode(options.apiKey ?? game.apiKey));
  };
  const apiHeaders = (g: TestGame = game) => ({ "x-api-key": g.apiKey, "x-client-id": g.clientId });
  const post: OffersTestContext["post"] = async (url, body, headers = {}) => {
    const res = await app.inject({ method: "POST", url, payload: body as object, headers: { "content-type": "application/json", ...headers } });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };
  return {
    app,
    database,
    clock,
    game,
    testGame,
    secretKey,
    jwt,
    apiHeaders,
    post,
    inject: (options) => app.inject(options),
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A digest of everything the offers service stores (every offers_ table, rows in a fixed order),
 * so a test can assert that a refused request changed nothing. Two options leave out what runs
 * beside the requests and moves on its own time:
 * - withoutStreamActivity: streams opened and closed, which the hub's buffer writes up to a second after
 *   the request that opened them (snapshot rows stay: a push writes them in its statement);
 * - withoutDeliveryWork: the deliveries and the fan-out cursor, which a delivery worker moves while an
 *   earlier, accepted request's webhooks are fanned out and sent.
 */
export async function storedStateDigest(db: OffersDatabase, options: { withoutStreamActivity?: boolean; withoutDeliveryWork?: boolean } = {}): Promise<string> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_name like 'offers\_%' order by 1`),
  )
    .map((row) => row.name)
    .filter((name) => !(options.withoutDeliveryWork && name === "offers_webhook_deliveries"));
  const rowsOfTable = (name: string) => {
    if (options.withoutStreamActivity && name === "offers_player_activity") return sql`(select * from offers_player_activity where kind = 'snapshot')`;
    if (options.withoutDeliveryWork && name === "offers_settings") return sql`(select * from offers_settings where name <> ${FANOUT_CURSOR})`;
    return sql.identifier(name);
  };
  const parts = tables.map((name) => sql`select ${name} || ':' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as digest from ${rowsOfTable(name)} t`);
  const [row] = rowsOf<{ digest: string }>(await db.execute(sql`select string_agg(digest, ',' order by digest) as digest from (${sql.join(parts, sql` union all `)}) d`));
  return row?.digest ?? "";
}


/**
 * Storage for tests of the service and the CLI as an operator runs them: a data directory and, on
 * the postgres target, a scratch database; env() builds the settings; cleanup() removes both.
 */
export function offersStorage(target: TestDatabaseTarget) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-storage-"));
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
  const url = async () => {
    if (target !== "postgres") return undefined;
    scratch ??= await createScratchPostgres({ template: offersMigrations });
    return scratch.url;
  };
  return {
    dataDir,
    async open(): Promise<OffersDatabaseHandle> {
      const databaseUrl = await url();
      return openOffersDatabase(databaseUrl ? { url: databaseUrl, poolSize: 2 } : { dataDir: path.join(dataDir, "offers") });
    },
    async env(vars: Record<string, string | undefined>): Promise<OffersEnv> {
      const databaseUrl = await url();
      return parseOffersEnv({
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATA_DIR: dataDir,
        OFFERS_HOST: "127.0.0.1",
        OFFERS_PORT: String(await freePort()),
        OFFERS_ADMIN_TOKEN: "admin-token-0123456789",
        OFFERS_DEMO_DATA: "off",
        ...(databaseUrl ? { OFFERS_DATABASE_URL: databaseUrl } : {}),
        ...vars,
      });
    },
    async cleanup() {
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs `npm run offers -- …` in process; answers its exit code and output. */
export async function runCli(env: OffersEnv, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOffersCli(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

// ---------- the service as its own process (crash tests) ----------

/**
 * The settings of a service process for a crash test, on a free loopback port: its data folder, its
 * secret key, production mode, no demo data, warnings only; `extra` on top (a test's own settings,
 * OFFERS_DATABASE_URL for PostgreSQL). `base` is its URL.
 */
export async function serviceProcessEnv(dataDir: string, secretKey: string, extra: Record<string, string> = {}): Promise<{ base: string; env: Record<string, string> }> {
  const port = await freePort();
  const env = {
    DATA_DIR: dataDir,
    OFFERS_PORT: String(port),
    OFFERS_HOST: "127.0.0.1",
    OFFERS_SECRET_KEY: secretKey,
    OFFERS_DEMO_DATA: "off",
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    ...extra,
  };
  return { base: `http://127.0.0.1:${port}`, env };
}

/**
 * Starts the built service (dist/offers/main.mjs, as `npm run start:offers`) with `env` on top of this
 * process's environment; stderr is piped (stdout too with `pipeStdout`).
 */
export function startServiceProcess(env: Record<string, string>, { pipeStdout = false } = {}): ChildProcess {
  // node itself (not npx) so that SIGKILL hits the process that holds the database.
  return spawn(process.execPath, builtOffersServiceArgs(), {
    cwd: process.cwd(),
    // OFFERS_DATABASE_URL only when the test sets it: PGlite otherwise.
    env: { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "OFFERS_DATABASE_URL")), ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", pipeStdout ? "pipe" : "ignore", "pipe"],
  });
}

export async function waitHealthy(base: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited (${child.exitCode}): ${stderr()}`);
    try {
      const res = await fetch(`${base}/health`);
      if (res.status === 200) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`service not healthy in time: ${stderr()}`);
}

export const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode ? resolve() : child.once("exit", () => resolve())));

/**
 * A claimable offer of `playerId` (an offer without conditions, assigned and viewed), for fault tests:
 * `claim()` claims it as the game server with `headers`; `offerState()` is what the admin API shows
 * of it: its status, and how many times the ledger granted it.
 */
export async function claimableGift(app: FastifyInstance, headers: Record<string, string>, gameId: string, playerId: string) {
  const coins = { kind: "coins" as const, rewardId: "coins", name: "Coins", amount: 10 };
  await app.offers.engine.upsertDefinition(gameId, "gift", { name: "Gift", rewards: [coins], durationSeconds: 86_400 });
  const { instanceId } = await app.offers.engine.assignOffer(gameId, playerId, "gift");
  await app.offers.engine.fetchCampaigns(gameId, playerId, { viewing: true, includeQueued: false });
  return {
    coins,
    offerState: async () => {
      const state = await playerState(app.offers.engine, gameId, playerId, false);
      return { status: state?.offers.find((o) => o.instanceId === instanceId)?.status, grants: state?.ledger.filter((e) => e.sourceId === instanceId).length };
    },
    claim: async () => {
      const res = await app.inject({ method: "POST", url: "/v1/reward/sdk/claim", headers, payload: { kind: "offer", instanceId, playerId } });
      return { status: res.statusCode, body: res.json(), retryAfter: res.headers["retry-after"] };
    },
  };
}
