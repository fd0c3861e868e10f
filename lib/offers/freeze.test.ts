/**
 * PostgreSQL frozen (every process stopped by SIGSTOP, as a hung host): the offers service answers
 * /health and campaign fetches with 503 database-unavailable within its database timeout (plus slack),
 * instead of waiting for the TCP stack, and recovers by itself once PostgreSQL runs again.
 */
import { describe, expect, it, onTestFinished } from "vitest";
import { SignJWT } from "jose";
import { openDatabase } from "../db";
import { canRunThrowawayPostgres, startThrowawayPostgres } from "../testing/throwaway";
import { buildOffersApp } from "./app";
import { ManualClock } from "./clock";
import { OFFERS_MIGRATIONS_TABLE, offersMigrationsDir, schema } from "./db";

const timeoutMs = 1_000;
// The client waits 1 s longer than the server's statement_timeout; the rest is slack for a busy machine.
const boundMs = timeoutMs + 1_000 + 3_000;

describe.skipIf(!canRunThrowawayPostgres())("offers service when PostgreSQL freezes", () => {
  it("answers 503 database-unavailable within the bound, then recovers on thaw without a restart", async () => {
    const server = await startThrowawayPostgres();
    onTestFinished(async () => {
      server.thaw();
      await server.destroy();
    });
    const database = await openDatabase({
      url: server.url,
      schema,
      migrationsDir: offersMigrationsDir(),
      migrationsTable: OFFERS_MIGRATIONS_TABLE,
      poolSize: 4,
      timeoutMs,
      onPoolError: () => {},
    });
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const app = await buildOffersApp({ database, secretKey: "a".repeat(64), adminToken: "admin-token-0123456789", clock, checkResponses: true });
    try {
      const game = await app.offers.games.createGame({ gameId: "g", name: "G", clientId: "c", apiKey: "key-0123456789-abcdef" });
      const iat = Math.floor(clock.now().getTime() / 1000);
      const jwt = await new SignJWT({})
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(game.gameId)
        .setSubject("player-1")
        .setIssuedAt(iat)
        .setExpirationTime(iat + 900)
        .sign(new TextEncoder().encode(game.apiKey));
      const requests = {
        health: () => app.inject({ method: "GET", url: "/health" }),
        campaigns: () => app.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": jwt, "content-type": "application/json" }, payload: {} }),
        refresh: () =>
          app.inject({
            method: "POST",
            url: "/v1/player/campaigns/refresh",
            headers: { "x-client-id": game.clientId, "x-api-key": game.apiKey, "content-type": "application/json" },
            payload: { playerId: "player-1" },
          }),
      };
      for (const send of Object.values(requests)) expect((await send()).statusCode).toBe(200);

      server.freeze();
      const answers = await Promise.all(
        Object.entries(requests).map(async ([name, send]) => {
          const started = Date.now();
          const response = await send();
          return { name, status: response.statusCode, body: response.json(), retryAfter: response.headers["retry-after"], elapsed: Date.now() - started };
        }),
      );
      for (const answer of answers) {
        expect(answer.status, answer.name).toBe(503);
        expect(answer.body, answer.name).toMatchObject({ message: "database-unavailable" });
        expect(answer.elapsed, answer.name).toBeLessThan(boundMs);
      }
      expect(answers.find((a) => a.name === "campaigns")?.retryAfter).toBeDefined();

      server.thaw();
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
        status = (await requests.campaigns()).statusCode;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
      for (const send of Object.values(requests)) expect((await send()).statusCode).toBe(200);
    } finally {
      server.thaw();
      await app.close();
      await Promise.race([database.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    }
  }, 60_000);
});
