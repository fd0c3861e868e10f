/**
 * Fault test: the offers service with Redis (a throwaway redis-server of the test's own) stopped
 * and started again. Offers surfaced while Redis is away reach streams on the same instance at
 * once, /health says the bus is degraded, and streams held by another instance get what they
 * missed once Redis is back; nothing is delivered twice. The two-instance half needs PostgreSQL
 * (TEST_DATABASE_URL): PGlite cannot be shared by two services.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createScratchPostgres, seedPgliteDataDir } from "@/test-support/db/test-databases";
import { offersMigrations } from "../db";
import { parseOffersEnv } from "../../env/offers";
import { connectEventStream, type EventStreamHandle } from "../../offers-client/sse";
import { canRunThrowawayRedis, freePort, startThrowawayRedis, type ThrowawayServer } from "@/test-support/throwaway";
import { startOffersService, type RunningOffersService } from "../service";
import { loadSurfacedSince } from "./bridge";

const GAME = { gameId: "outage-game", name: "Outage", clientId: "outage-client", apiKey: "outage-api-key-0123456789" };
const OFFERS = ["live-1", "live-2", "live-3"];
const secretKey = randomBytes(32).toString("hex");
const adminToken = "outage-admin-token-0123456789";

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.skipIf(!canRunThrowawayRedis())("offers service while Redis is down", () => {
  let redis: ThrowawayServer;
  let redisStopped = false;
  const stopRedis = async () => {
    redisStopped = true;
    await redis.stop();
  };
  const startRedis = async () => {
    await redis.start();
    redisStopped = false;
  };
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeAll(async () => {
    redis = await startThrowawayRedis();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    if (redisStopped) await startRedis(); // a test that failed during the outage
  });
  afterAll(async () => {
    await redis?.destroy();
  });

  async function startInstance(databaseUrl: string | undefined): Promise<RunningOffersService & { base: string }> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-outage-"));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    if (!databaseUrl) await seedPgliteDataDir(path.join(dataDir, "offers"), offersMigrations);
    const env = parseOffersEnv({
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      DATA_DIR: dataDir,
      OFFERS_HOST: "127.0.0.1",
      OFFERS_PORT: String(await freePort()),
      OFFERS_DATABASE_URL: databaseUrl,
      OFFERS_SECRET_KEY: secretKey,
      OFFERS_ADMIN_TOKEN: adminToken,
      OFFERS_DEMO_DATA: "off",
      REDIS_URL: redis.url,
      SSE_HEARTBEAT_MS: "1000",
    });
    const service = await startOffersService({ env, logger: pino({ level: "silent" }) });
    cleanups.push(() => service.stop());
    return { ...service, base: `${service.url}/v1` };
  }

  async function setUpGame(service: RunningOffersService) {
    await service.app.offers.games.createGame(GAME);
    for (const offerId of OFFERS) {
      const res = await service.app.inject({
        method: "PUT",
        url: `/v1/offers/definitions/${offerId}`,
        headers: { "x-api-key": GAME.apiKey, "x-client-id": GAME.clientId, "content-type": "application/json" },
        payload: { name: offerId, description: "", rewards: [{ kind: "coins", rewardId: "c", name: "Coins", amount: 1 }], realTime: true, durationSeconds: 3600 },
      });
      expect(res.statusCode).toBe(200);
    }
  }

  async function surface(service: RunningOffersService, playerId: string, offerId: string): Promise<void> {
    const res = await service.app.inject({
      method: "POST",
      url: "/v1/player/offers/assign",
      headers: { "x-api-key": GAME.apiKey, "x-client-id": GAME.clientId, "content-type": "application/json" },
      payload: { playerId, offerId },
    });
    expect(res.statusCode).toBe(200);
  }

  const jwt = (playerId: string) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({}).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setIssuer(GAME.gameId).setSubject(playerId).setIssuedAt(now).setExpirationTime(now + 900).sign(new TextEncoder().encode(GAME.apiKey));
  };

  /** A player's stream through the SDK; records the ids of the offers it gets. */
  function player(service: { base: string }, playerId: string) {
    const ids: number[] = [];
    const handle: EventStreamHandle = connectEventStream({
      url: `${service.base}/sse/connect`,
      getToken: () => jwt(playerId),
      onEvent: (event) => {
        if (event.event === "offer_surfaced") ids.push(Number(event.id));
      },
      initialDelayMs: 100,
      maxDelayMs: 1_000,
    });
    cleanups.push(() => handle.close());
    return { playerId, ids, handle, key: { gameId: GAME.gameId, playerId } };
  }

  const health = async (service: { url: string }) => {
    const res = await fetch(`${service.url}/health`);
    return { status: res.status, body: (await res.json()) as Record<string, string> };
  };

  /** The player's real-time offers as the database records them: what the stream must have shown, once each. */
  const history = async (service: RunningOffersService, playerId: string) =>
    (await loadSurfacedSince(service.database.db, { gameId: GAME.gameId, playerId }, 0)).events.map((e) => e.seq);

  it("delivers on the same instance while Redis is stopped, and /health says the bus is degraded", { timeout: 60_000 }, async () => {
    const scratch = process.env.TEST_DATABASE_URL ? await createScratchPostgres({ template: offersMigrations }) : undefined;
    if (scratch) cleanups.push(() => scratch.drop());
    const a = await startInstance(scratch?.url);
    await setUpGame(a);
    await until(async () => (await health(a)).body.bus === "ok", 10_000, "bus up");
    expect(await health(a)).toMatchObject({ status: 200, body: { status: "ok", database: "ok", bus: "ok" } });

    const p1 = player(a, "p1");
    await until(() => a.stream.hub.isLive(p1.key), 10_000, "p1 live");
    await surface(a, "p1", "live-1");
    await until(() => p1.ids.length === 1, 5_000, "offer before the outage");

    await stopRedis();
    await until(async () => (await health(a)).body.bus === "degraded", 10_000, "bus degraded");
    expect(await health(a)).toMatchObject({ status: 200, body: { status: "degraded", database: "ok", bus: "degraded" } });
    await surface(a, "p1", "live-2");
    await until(() => p1.ids.length === 2, 3_000, "offer during the outage, same instance");

    await startRedis();
    await until(async () => (await health(a)).body.bus === "ok", 15_000, "bus back");
    await surface(a, "p1", "live-3");
    await until(() => p1.ids.length === 3, 5_000, "offer after the outage");
    await new Promise((r) => setTimeout(r, 300));
    expect(p1.ids).toEqual(await history(a, "p1"));
    expect(p1.handle.state.status).toBe("open");
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "a stream on another instance gets what surfaced during the outage once Redis is back, and one stream per player wins again",
    { timeout: 90_000 },
    async () => {
      const scratch = await createScratchPostgres({ template: offersMigrations });
      cleanups.push(() => scratch.drop());
      const a = await startInstance(scratch.url);
      const b = await startInstance(scratch.url);
      await setUpGame(a);
      await until(async () => (await health(a)).body.bus === "ok" && (await health(b)).body.bus === "ok", 10_000, "buses up");

      const p2 = player(b, "p2"); // held by B; its offers surface through A
      const p3OnA = player(a, "p3");
      await until(() => b.stream.hub.isLive(p2.key) && a.stream.hub.isLive(p3OnA.key), 10_000, "streams live");
      await surface(a, "p2", "live-1");
      await until(() => p2.ids.length === 1, 5_000, "cross-instance offer before the outage");

      await stopRedis();
      await until(async () => (await health(a)).body.bus === "degraded" && (await health(b)).body.bus === "degraded", 10_000, "buses degraded");
      await surface(a, "p2", "live-2");
      // The same player opens a newer stream on B: the takeover cannot reach A while Redis is away.
      const p3OnB = player(b, "p3");
      await until(() => b.stream.hub.isLive(p3OnB.key), 10_000, "p3 live on B");
      expect(a.stream.hub.isConnected(p3OnA.key)).toBe(true);

      await startRedis();
      await until(() => p2.ids.length === 2, 20_000, "offer surfaced during the outage reaches B after it");
      // A's older stream of p3 yields to B's once the bus is back; the SDK on A stops for good.
      await until(() => !a.stream.hub.isConnected(p3OnA.key), 10_000, "older p3 stream replaced");
      await p3OnA.handle.closed;
      expect(p3OnA.handle.state.reason).toBe("replaced by a newer connection");
      expect(b.stream.hub.isConnected(p3OnB.key)).toBe(true);

      await until(async () => (await health(a)).body.bus === "ok" && (await health(b)).body.bus === "ok", 10_000, "buses back");
      await surface(a, "p2", "live-3");
      await until(() => p2.ids.length === 3, 5_000, "cross-instance offer after the outage");
      await new Promise((r) => setTimeout(r, 300));
      expect(p2.ids).toEqual(await history(a, "p2"));
    },
  );
});
