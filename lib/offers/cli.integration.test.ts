/**
 * The CLI sets a game's longest accepted JWT lifetime (default 24 h), stored with the game, and the
 * service refuses longer tokens with jwt-invalid. Bad settings and ids are refused with a message.
 */
import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { buildOffersApp } from "./app";
import { parseDuration } from "./cli-commands";
import { signGameJwt } from "./jwt";
import { offersStorage, runCli } from "@/test-support/offers/test-app";

const SECRET = "c".repeat(64);
const HOUR = 3600;

describe("durations", () => {
  it("reads seconds and s, m, h, d", () => {
    expect([parseDuration("900"), parseDuration("15m"), parseDuration("24h"), parseDuration("2d"), parseDuration("30s")]).toEqual([900, 900, 86_400, 172_800, 30]);
    for (const bad of ["", "1.5h", "-1", "h", "10w", "1e3"]) expect(parseDuration(bad), bad).toBeNaN();
  });
});

describe.each(testDatabaseTargets())("npm run offers -- games:… on %s", (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("stores a per-game maximum token lifetime, and the service refuses longer tokens", { timeout: 120_000 }, async () => {
    const s = offersStorage(target);
    cleanups.push(() => s.cleanup());
    const env = await s.env({ OFFERS_SECRET_KEY: SECRET });
    const created = await runCli(env, "games:create", "short-game", "Short", "tokens", "--max-token-lifetime", "1h", "--slots", "4");
    expect(created.code, created.err).toBe(0);
    const apiKey = /Live API key:\s+(\S+)/.exec(created.out)![1];
    // Both key sets, each saying its environment.
    expect(created.out).toMatch(/Live API key:\s+ok_live_\S+/);
    expect(created.out).toMatch(/Test API key:\s+ok_test_\S+/);
    const rotated = await runCli(env, "keys:rotate", "short-game", "--environment", "test");
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toMatch(/API key:\s+ok_test_\S+/);
    expect((await runCli(env, "keys:rotate", "short-game", "--environment", "staging")).code).toBe(1);
    expect((await runCli(env, "games:create", "default-game", "Default")).code).toBe(0);
    const listed = await runCli(env, "games:list");
    expect(listed.out).toMatch(/short-game\tShort tokens\tslots=4\tmax-token-lifetime=3600s/);
    expect(listed.out).toMatch(/default-game\tDefault\tslots=3\tmax-token-lifetime=86400s/);

    const fetchWith = async (ttlSeconds: number) => {
      const database = await s.open();
      const app = await buildOffersApp({ database, secretKey: SECRET, adminToken: "admin-token-0123456789" });
      try {
        const jwt = await signGameJwt({ gameId: "short-game", playerId: "p", apiKey, now: new Date(), ttlSeconds });
        const res = await app.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": jwt }, payload: {} });
        return res.statusCode === 200 ? "ok" : res.json().message;
      } finally {
        await app.close();
        await database.close();
      }
    };
    expect(await fetchWith(HOUR)).toBe("ok");
    expect(await fetchWith(2 * HOUR)).toBe("jwt-invalid");

    const set = await runCli(env, "games:set", "short-game", "--max-token-lifetime", "3h");
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain("max-token-lifetime=10800s");
    expect(await fetchWith(2 * HOUR)).toBe("ok");
    expect(await fetchWith(4 * HOUR)).toBe("jwt-invalid");
  });

  it("refuses bad settings, unknown games and ids outside the identifier rule", { timeout: 120_000 }, async () => {
    const s = offersStorage(target);
    cleanups.push(() => s.cleanup());
    const env = await s.env({ OFFERS_SECRET_KEY: SECRET });
    expect((await runCli(env, "games:create", "g", "G")).code).toBe(0);
    for (const lifetime of ["59", "31d"]) {
      const res = await runCli(env, "games:set", "g", "--max-token-lifetime", lifetime);
      expect(res.code, lifetime).toBe(1);
      expect(res.err, lifetime).toContain("invalid-game-settings");
    }
    expect((await runCli(env, "games:set", "g", "--slots", "0")).err).toContain("invalid-game-settings");
    expect((await runCli(env, "games:set", "g")).code).toBe(1); // nothing to set
    expect((await runCli(env, "games:set", "nope", "--slots", "2")).err).toContain("game-not-found");
    for (const gameId of ["a:b", "../x"]) {
      const res = await runCli(env, "games:create", gameId, "Bad");
      expect(res.code, gameId).toBe(1);
      expect(res.err, gameId).toContain("invalid-game-id");
    }
    expect((await runCli(env, "games:list")).out.split("\n")).toHaveLength(1);
  });
});
