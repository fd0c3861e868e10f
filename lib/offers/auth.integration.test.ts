/**
 * Authentication over HTTP: every JWT error code in DESIGN's check order, the RFC 8725 attack list,
 * key rotation, and the API-key cases. Nothing here may answer a 5xx.
 */
import { createHmac, generateKeyPairSync, createSign } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

const b64 = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url");

function hmacToken(header: Record<string, unknown>, payload: Record<string, unknown>, key: string, hash = "sha256"): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac(hash, key).update(input).digest("base64url")}`;
}

describe.each(testDatabaseTargets())("authentication on %s", (target) => {
  let t: OffersTestContext;
  let now: number;
  let key: string;
  const hs256 = { alg: "HS256", typ: "JWT" };
  const claims = (extra: Record<string, unknown> = {}) => ({ iss: "game-a", sub: "player-1", iat: now, exp: now + 600, ...extra });
  const without = (name: string, extra: Record<string, unknown> = {}) => {
    const c: Record<string, unknown> = claims(extra);
    delete c[name];
    return c;
  };
  const campaigns = (token: string | undefined, via: "x-game-jwt" | "bearer" = "x-game-jwt") =>
    t.post("/v1/client/player/campaigns", {}, token === undefined ? {} : via === "bearer" ? { authorization: `Bearer ${token}` } : { "x-game-jwt": token });
  const expectCode = async (token: string | undefined, status: number, code: string) => {
    const res = await campaigns(token);
    expect(res, code).toEqual({ status, body: { message: code } });
  };

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    now = Math.floor(t.clock.now().getTime() / 1000);
    key = t.game.apiKey;
    await t.app.offers.games.createGame({ gameId: "game-b", name: "Game B", clientId: "client-b", apiKey: "api-key-of-game-b-0123456789" });
  });
  afterAll(async () => t?.close());

  it("accepts a valid token in x-game-jwt and in Authorization: Bearer", async () => {
    const token = hmacToken(hs256, claims(), key);
    expect((await campaigns(token)).status).toBe(200);
    expect((await campaigns(token, "bearer")).status).toBe(200);
    expect((await campaigns(await t.jwt("player-2"))).status).toBe(200);
  });

  it("answers each code of the interface with DESIGN's status", async () => {
    await expectCode(undefined, 401, "jwt-invalid");
    await expectCode(hmacToken(hs256, claims({ exp: now - 1 }), key), 401, "jwt-expired");
    await expectCode(hmacToken(hs256, claims(), "some-other-key-0123456789"), 401, "jwt-invalid");
    await expectCode(hmacToken(hs256, without("iss"), key), 400, "jwt-missing-gameId");
    await expectCode(hmacToken(hs256, without("sub"), key), 400, "jwt-missing-playerId");
    await expectCode(hmacToken(hs256, claims({ nbf: now + 60 }), key), 401, "jwt-not-yet-valid");
    await expectCode(hmacToken(hs256, claims({ iss: "no-such-game" }), key), 401, "unknown-gameId");
  });

  it("checks in DESIGN's order when a token has several faults", async () => {
    // iss before signature and game lookup
    await expectCode(hmacToken({ alg: "none" }, without("iss"), key), 400, "jwt-missing-gameId");
    // unknown game before algorithm and signature
    await expectCode(hmacToken({ alg: "HS512" }, claims({ iss: "ghost" }), key, "sha512"), 401, "unknown-gameId");
    // signature before sub
    await expectCode(hmacToken(hs256, without("sub"), "wrong-key-0123456789"), 401, "jwt-invalid");
    // sub before exp
    await expectCode(hmacToken(hs256, without("sub", { exp: undefined }), key), 400, "jwt-missing-playerId");
    // exp presence before nbf
    await expectCode(hmacToken(hs256, without("exp", { nbf: now + 3600 }), key), 401, "jwt-invalid");
    // expiry before nbf
    await expectCode(hmacToken(hs256, claims({ exp: now - 10, nbf: now + 3600 }), key), 401, "jwt-expired");
  });

  describe("RFC 8725 attack list", () => {
    it("refuses alg none and None (with and without a signature)", async () => {
      for (const alg of ["none", "None", "NONE"]) {
        await expectCode(`${b64({ alg, typ: "JWT" })}.${b64(claims())}.`, 401, "jwt-invalid");
        await expectCode(hmacToken({ alg, typ: "JWT" }, claims(), key), 401, "jwt-invalid");
      }
    });

    it("refuses HS512 signed with the right key", async () => {
      await expectCode(hmacToken({ alg: "HS512", typ: "JWT" }, claims(), key, "sha512"), 401, "jwt-invalid");
      await expectCode(hmacToken({ alg: "HS384", typ: "JWT" }, claims(), key, "sha384"), 401, "jwt-invalid");
    });

    it("refuses an RS256 header, HMAC-signed with the key (algorithm confusion) or really RSA-signed", async () => {
      await expectCode(hmacToken({ alg: "RS256", typ: "JWT" }, claims(), key), 401, "jwt-invalid");
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
      const input = `${b64({ alg: "RS256", typ: "JWT" })}.${b64(claims())}`;
      const signature = createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url");
      await expectCode(`${input}.${signature}`, 401, "jwt-invalid");
    });

    it("ignores kid, jku, x5u and jwk headers and fetches nothing", async () => {
      let fetched = 0;
      const server = http.createServer((req, res) => {
        fetched += 1;
        res.end(JSON.stringify({ keys: [{ kty: "oct", k: b64("attacker-key-0123456789") }] }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
      try {
        const headers = { ...hs256, kid: "../../etc/passwd", jku: url, x5u: url, jwk: { kty: "oct", k: b64("attacker-key-0123456789") } };
        // signed with the game's key: valid, the headers change nothing
        expect((await campaigns(hmacToken(headers, claims(), key))).status).toBe(200);
        // signed with the attacker's key named by those headers: refused
        await expectCode(hmacToken(headers, claims(), "attacker-key-0123456789"), 401, "jwt-invalid");
        expect(fetched).toBe(0);
      } finally {
        server.close();
      }
    });

    it("refuses a token of game A that names game B as iss", async () => {
      await expectCode(hmacToken(hs256, claims({ iss: "game-b" }), key), 401, "jwt-invalid");
    });

    it("refuses exp missing, as a string, equal to now; accepts exp one second ahead", async () => {
      await expectCode(hmacToken(hs256, without("exp"), key), 401, "jwt-invalid");
      await expectCode(hmacToken(hs256, claims({ exp: String(now + 600) }), key), 401, "jwt-invalid");
      await expectCode(hmacToken(hs256, claims({ exp: now }), key), 401, "jwt-expired");
      expect((await campaigns(hmacToken(hs256, claims({ exp: now + 1 }), key))).status).toBe(200);
    });

    it("allows nbf within 5 s of clock skew, refuses beyond", async () => {
      expect((await campaigns(hmacToken(hs256, claims({ nbf: now + 5 }), key))).status).toBe(200);
      await expectCode(hmacToken(hs256, claims({ nbf: now + 6 }), key), 401, "jwt-not-yet-valid");
      await expectCode(hmacToken(hs256, claims({ nbf: "soon" }), key), 401, "jwt-invalid");
    });

    it("treats empty iss and sub as missing", async () => {
      await expectCode(hmacToken(hs256, claims({ iss: "" }), key), 400, "jwt-missing-gameId");
      await expectCode(hmacToken(hs256, claims({ sub: "" }), key), 400, "jwt-missing-playerId");
      await expectCode(hmacToken(hs256, claims({ iss: 42 }), key), 401, "jwt-invalid");
      await expectCode(hmacToken(hs256, claims({ sub: { id: 1 } }), key), 401, "jwt-invalid");
    });

    it("refuses an unknown crit and b64:false", async () => {
      await expectCode(hmacToken({ ...hs256, crit: ["urn:example:unknown"], "urn:example:unknown": true }, claims(), key), 401, "jwt-invalid");
      await expectCode(hmacToken({ ...hs256, crit: ["exp"] }, claims(), key), 401, "jwt-invalid");
      // RFC 7797 unencoded payload: the signature covers the raw payload
      const header = b64({ alg: "HS256", b64: false, crit: ["b64"] });
      const raw = JSON.stringify(claims());
      const sig = createHmac("sha256", key).update(`${header}.${raw}`).digest("base64url");
      await expectCode(`${header}.${b64(claims())}.${sig}`, 401, "jwt-invalid");
      await expectCode(`${header}..${sig}`, 401, "jwt-invalid");
      await expectCode(hmacToken({ ...hs256, b64: false }, claims(), key), 401, "jwt-invalid");
    });

    it("refuses two or four segments, garbage, and a 20 KB token", async () => {
      const valid = hmacToken(hs256, claims(), key);
      const [h, p, s] = valid.split(".");
      await expectCode(`${h}.${p}`, 401, "jwt-invalid");
      await expectCode(`${h}.${p}.${s}.${s}`, 401, "jwt-invalid");
      await expectCode("not-a-jwt", 401, "jwt-invalid");
      await expectCode(`${b64("not json")}.${b64("[1,2]")}.${s}`, 401, "jwt-invalid");
      await expectCode(`${h}.${p}.***`, 401, "jwt-invalid");
      const big = hmacToken(hs256, claims({ padding: "x".repeat(20 * 1024) }), key);
      expect(big.length).toBeGreaterThan(20 * 1024);
      await expectCode(big, 401, "jwt-invalid");
      const res = await t.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { authorization: "Basic abc" }, payload: {} });
      expect(res.statusCode).toBe(401);
    });
  });

  it("guards every JWT endpoint", async () => {
    for (const url of ["/v1/auth/one_time_token/generate", "/v1/client/player/campaigns", "/v1/client/player/referrals", "/v1/client/reward/claim"]) {
      expect(await t.post(url, {}, {}), url).toEqual({ status: 401, body: { message: "jwt-invalid" } });
      expect(await t.post(url, {}, { "x-game-jwt": hmacToken(hs256, claims({ exp: now - 1 }), key) }), url).toEqual({ status: 401, body: { message: "jwt-expired" } });
    }
  });

  it("verifies against both active keys during rotation, and not after revocation", async () => {
    const games = t.app.offers.games;
    await games.createGame({ gameId: "game-r", name: "Rotating", clientId: "client-r1", apiKey: "rotation-key-one-0123456789" });
    const second = await games.rotateKey("game-r");
    const tokenOld = hmacToken(hs256, claims({ iss: "game-r" }), "rotation-key-one-0123456789");
    const tokenNew = hmacToken(hs256, claims({ iss: "game-r" }), second.apiKey);
    expect((await campaigns(tokenOld)).status).toBe(200);
    expect((await campaigns(tokenNew)).status).toBe(200);
    await expect(games.rotateKey("game-r")).rejects.toMatchObject({ code: "too-many-keys" });
    await games.revokeKey("game-r", "client-r1");
    await expectCode(tokenOld, 401, "jwt-invalid");
    expect((await campaigns(tokenNew)).status).toBe(200);
    // API key auth follows the same rotation
    const refresh = (clientId: string, apiKey: string) => t.post("/v1/player/campaigns/refresh", { playerId: "p" }, { "x-client-id": clientId, "x-api-key": apiKey });
    expect((await refresh(second.clientId, second.apiKey)).status).toBe(200);
    expect((await refresh("client-r1", "rotation-key-one-0123456789")).status).toBe(401);
  });

  describe("API key", () => {
    const refresh = (headers: Record<string, string>) =>
      t.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: { "content-type": "application/json", ...headers }, payload: { playerId: "player-1" } });

    it("accepts the right pair", async () => {
      expect((await refresh(t.apiHeaders())).statusCode).toBe(200);
    });

    it("answers 401 with the bare JSON string for every wrong pair", async () => {
      const cases: Array<Record<string, string>> = [
        {},
        { "x-api-key": key },
        { "x-client-id": "client-a" },
        { "x-client-id": "client-a", "x-api-key": "wrong" },
        { "x-client-id": "client-a", "x-api-key": `${key}x` },
        { "x-client-id": "client-a", "x-api-key": key.slice(0, -1) },
        { "x-client-id": "nobody", "x-api-key": key },
        { "x-client-id": "client-b", "x-api-key": key },
        { "x-client-id": "client-a", "x-api-key": "" },
        { "x-client-id": "client-a", "x-api-key": "k".repeat(5000) },
      ];
      for (const headers of cases) {
        const res = await refresh(headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(401);
        expect(res.body).toBe('"invalid-api-key"');
        expect(res.headers["content-type"]).toMatch(/^application\/json/);
        expect(res.json()).toBe("invalid-api-key");
      }
    });

    it("guards every API-key endpoint", async () => {
      const routes: Array<[string, string]> = [
        ["POST", "/v1/player/campaigns/refresh"],
        ["POST", "/v1/reward/sdk/claim"],
        ["PUT", "/v1/offers/definitions/x"],
        ["POST", "/v1/player/offers/assign"],
        ["POST", "/v1/player/snapshot"],
        ["POST", "/v1/referrals"],
        ["PUT", "/v1/currencies/gold"],
        ["POST", "/v1/player/rewards/grant"],
        ["POST", "/v1/player/offers/x/expire"],
        ["POST", "/v1/player/offers/x/revoke"],
        ["POST", "/v1/player/offers/x/extend"],
        ["POST", "/v1/player/offers/x/make-claimable"],
      ];
      for (const [method, url] of routes) {
        const res = await t.inject({ method: method as "POST", url, headers: { "x-client-id": "client-a", "x-api-key": "nope" }, payload: {} });
        expect(res.statusCode, url).toBe(401);
        expect(res.body).toBe('"invalid-api-key"');
      }
    });
  });
});
