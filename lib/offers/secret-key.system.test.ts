/**
 * OFFERS_SECRET_KEY must match the key that sealed the stored API keys. A service or CLI started
 * with another key refuses to start with a message saying so; a key that cannot be opened at
 * request time answers 503 secret-key-mismatch, never 500; the key itself can be rotated
 * (OFFERS_SECRET_KEY_PREVIOUS, then `secret-key:rotate`, one transaction).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { builtOffersServiceArgs } from "@/test-support/built";
import { buildOffersApp } from "./app";
import { WebhookEndpoints, signingSecrets } from "./delivery/endpoints";
import { systemClock } from "./clock";
import { apiClients, settings, webhookEndpoints } from "./db/schema";
import { GameDirectory } from "./games";
import { SecretBox } from "./secret-box";
import { ensureSecretKeyMatches, SECRET_KEY_CHECK_SETTING, SecretKeyRefusedError } from "./secret-key";
import { startOffersService } from "./service";
import { offersStorage, runCli as cli } from "@/test-support/offers/test-app";

const keyA = randomBytes(32).toString("hex");
const keyB = randomBytes(32).toString("hex");
const keyC = randomBytes(32).toString("hex");
const MISMATCH = /OFFERS_SECRET_KEY does not match the key that encrypted the stored API keys/;

describe.each(testDatabaseTargets())("the secret key of stored API keys, on %s", (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  const newStorage = () => {
    const s = offersStorage(target);
    cleanups.push(() => s.cleanup());
    return s;
  };
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("refuses to start a second instance with another key, saying the key does not match the stored keys", { timeout: 120_000 }, async () => {
    const s = newStorage();
    const first = await startOffersService({ env: await s.env({ OFFERS_SECRET_KEY: keyA, OFFERS_DEMO_DATA: "on" }), logger: pino({ level: "silent" }) });
    const running = first.url;
    try {
      if (target === "pglite") await first.stop(); // one process per embedded database: the second starts after
      await expect(startOffersService({ env: await s.env({ OFFERS_SECRET_KEY: keyB }), logger: pino({ level: "silent" }) })).rejects.toThrow(MISMATCH);
      // A key generated into DATA_DIR (OFFERS_SECRET_KEY unset) is another key too, and the message says where it came from.
      await expect(startOffersService({ env: await s.env({}), logger: pino({ level: "silent" }) })).rejects.toThrow(/generated into .*offers-secret-key/);
      if (target === "postgres") expect((await fetch(`${running}/health`)).status).toBe(200); // the first one serves on
      // The right key still starts.
      if (target === "pglite") {
        const again = await startOffersService({ env: await s.env({ OFFERS_SECRET_KEY: keyA }), logger: pino({ level: "silent" }) });
        await again.stop();
      }
    } finally {
      await first.stop();
    }
  });

  it("a service process started with another key exits 1 with that message", { timeout: 120_000 }, async () => {
    const s = newStorage();
    {
      const database = await s.open();
      await new GameDirectory(database.db, new SecretBox(keyA)).createGame({ gameId: "g", name: "G" });
      await ensureSecretKeyMatches(database.db, new SecretBox(keyA));
      await database.close();
    }
    const env = await s.env({ OFFERS_SECRET_KEY: keyB });
    const child = spawn(process.execPath, builtOffersServiceArgs(), {
      cwd: process.cwd(),
      env: {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OFFERS_"))),
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        DATA_DIR: s.dataDir,
        OFFERS_PORT: String(env.OFFERS_PORT),
        OFFERS_SECRET_KEY: keyB,
        OFFERS_DEMO_DATA: "off",
        ...(env.OFFERS_DATABASE_URL ? { OFFERS_DATABASE_URL: env.OFFERS_DATABASE_URL } : {}),
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
      child.once("exit", (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(MISMATCH);
    expect(stderr).not.toMatch(/\n\s+at /); // the message, not a stack trace
  });

  it("stores the check value once: derived from a stored key on a database that has none, else from the key", { timeout: 120_000 }, async () => {
    const s = newStorage();
    const database = await s.open();
    try {
      const checkValue = async () => (await database.db.select().from(settings).where(eq(settings.name, SECRET_KEY_CHECK_SETTING)))[0]?.value;
      // A database from before the check value: keys sealed with A.
      await new GameDirectory(database.db, new SecretBox(keyA)).createGame({ gameId: "g", name: "G" });
      expect(await checkValue()).toBeUndefined();
      await expect(ensureSecretKeyMatches(database.db, new SecretBox(keyB))).rejects.toThrow(SecretKeyRefusedError);
      expect(await checkValue()).toBeUndefined(); // a refused key stores nothing
      expect(await ensureSecretKeyMatches(database.db, new SecretBox(keyA))).toBe("current");
      expect(await checkValue()).toBe(new SecretBox(keyA).checkValue);
      await expect(ensureSecretKeyMatches(database.db, new SecretBox(keyB))).rejects.toThrow(MISMATCH);

      // An empty database takes the first key it sees.
      const empty = newStorage();
      const fresh = await empty.open();
      try {
        expect(await ensureSecretKeyMatches(fresh.db, new SecretBox(keyC))).toBe("current");
        await expect(ensureSecretKeyMatches(fresh.db, new SecretBox(keyB))).rejects.toThrow(MISMATCH);
      } finally {
        await fresh.close();
      }
    } finally {
      await database.close();
    }
  });

  it("answers 503 secret-key-mismatch, never 500, when a stored key cannot be decrypted at request time", { timeout: 120_000 }, async () => {
    const s = newStorage();
    const database = await s.open();
    const logged: unknown[] = [];
    const logger = pino({ level: "error" }, { write: (line: string) => logged.push(JSON.parse(line)) });
    // Started with B; a key sealed with A appears afterwards (another instance on another key).
    const app = await buildOffersApp({ database, secretKey: keyB, adminToken: "admin-token-0123456789", logger, checkResponses: true });
    try {
      const game = await new GameDirectory(database.db, new SecretBox(keyA)).createGame({ gameId: "g", name: "G" });
      const apiKeyCall = await app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: { "x-client-id": game.clientId, "x-api-key": game.apiKey }, payload: { playerId: "p" } });
      expect({ status: apiKeyCall.statusCode, body: apiKeyCall.json() }).toEqual({ status: 503, body: { message: "secret-key-mismatch" } });
      const { signGameJwt } = await import("./jwt");
      const jwt = await signGameJwt({ gameId: "g", playerId: "p", apiKey: game.apiKey, now: new Date() });
      const jwtCall = await app.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": jwt }, payload: {} });
      expect({ status: jwtCall.statusCode, body: jwtCall.json() }).toEqual({ status: 503, body: { message: "secret-key-mismatch" } });
      expect(JSON.stringify(logged)).toContain("cannot be decrypted");

      // Given the old key as OFFERS_SECRET_KEY_PREVIOUS, the same requests succeed.
      const healed = await buildOffersApp({ database, secretKey: keyB, previousSecretKey: keyA, adminToken: "admin-token-0123456789", checkResponses: true });
      const ok = await healed.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: { "x-client-id": game.clientId, "x-api-key": game.apiKey }, payload: { playerId: "p" } });
      expect(ok.statusCode).toBe(200);
      await healed.close();
    } finally {
      await app.close();
      await database.close();
    }
  });

  it("rotates OFFERS_SECRET_KEY: the old key as OFFERS_SECRET_KEY_PREVIOUS, then secret-key:rotate in one transaction", { timeout: 120_000 }, async () => {
    const s = newStorage();
    const created = await cli(await s.env({ OFFERS_SECRET_KEY: keyA }), "games:create", "g1", "Game One");
    expect(created.code, created.err).toBe(0);
    const apiKey = /Live API key:\s+(\S+)/.exec(created.out)![1];
    const clientId = /Live client id:\s+(\S+)/.exec(created.out)![1];

    // The CLI refuses a wrong key, and writes nothing with it.
    const wrong = await cli(await s.env({ OFFERS_SECRET_KEY: keyB }), "games:create", "g2", "Game Two");
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(MISMATCH);
    expect((await cli(await s.env({ OFFERS_SECRET_KEY: keyB }), "games:list")).code).toBe(1);
    expect((await cli(await s.env({ OFFERS_SECRET_KEY: keyA }), "games:list")).out).not.toMatch(/^g2\t/m); // a line per game; random client ids may contain "g2"

    // Step 1: the new key, with the old one still accepted for decryption.
    const during = await s.env({ OFFERS_SECRET_KEY: keyB, OFFERS_SECRET_KEY_PREVIOUS: keyA });
    const listed = await cli(during, "games:list");
    expect(listed.code).toBe(0);
    expect(listed.err).toContain("secret-key:rotate");
    const serve = async (secretKey: string, previousSecretKey?: string) => {
      const database = await s.open();
      const app = await buildOffersApp({ database, secretKey, previousSecretKey, adminToken: "admin-token-0123456789", checkResponses: true });
      try {
        const res = await app.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: { "x-client-id": clientId, "x-api-key": apiKey }, payload: { playerId: "p" } });
        return res.statusCode;
      } finally {
        await app.close();
        await database.close();
      }
    };
    expect(await serve(keyB, keyA)).toBe(200);

    // A stored key that opens with neither: the rotation refuses and changes nothing.
    {
      const database = await s.open();
      await database.db.insert(apiClients).values({ clientId: "stray", gameId: "g1", encryptedKey: new SecretBox(keyC).encrypt("stray-key-0123456789"), revokedAt: new Date() });
      await database.close();
    }
    const refused = await cli(during, "secret-key:rotate");
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("stray");
    expect((await cli(await s.env({ OFFERS_SECRET_KEY: keyA }), "games:list")).code).toBe(0); // the check value still names A
    {
      const database = await s.open();
      await database.db.delete(apiClients).where(eq(apiClients.clientId, "stray"));
      await database.close();
    }

    // A webhook endpoint's signing secret, sealed under the old key too.
    let webhookSecret: string;
    {
      const database = await s.open();
      webhookSecret = (await new WebhookEndpoints(database.db, new SecretBox(keyA), systemClock, { allowPrivate: true }).create("g1", { url: "https://hooks.example.com/rewards" })).secret;
      await database.close();
    }

    // Step 2: rotate.
    const rotated = await cli(during, "secret-key:rotate");
    expect(rotated.code, rotated.err).toBe(0);
    expect(rotated.out).toContain("Re-encrypted 2 stored API keys"); // the live and the test key of the game
    expect(rotated.out).toContain("1 webhook signing secret;");
    {
      const database = await s.open();
      const [endpoint] = await database.db.select().from(webhookEndpoints);
      expect(signingSecrets(new SecretBox(keyB), endpoint!, new Date())).toEqual([webhookSecret]);
      await database.close();
    }
    expect((await cli(during, "secret-key:rotate")).out).toContain("Re-encrypted 0 stored API keys"); // idempotent

    // Step 3: the new key alone serves every stored key; the old key alone is refused.
    expect(await serve(keyB)).toBe(200);
    expect((await cli(await s.env({ OFFERS_SECRET_KEY: keyB }), "games:list")).code).toBe(0);
    const old = await cli(await s.env({ OFFERS_SECRET_KEY: keyA }), "games:list");
    expect(old.code).toBe(1);
    expect(old.err).toMatch(MISMATCH);
  });
});
