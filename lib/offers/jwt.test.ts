/**
 * Tokens signed with the right key but absurd: lifetimes beyond the game's maximum, exp in
 * milliseconds, iat in the future, time claims that are not whole seconds, duplicate JSON keys,
 * and base64url that is not in its canonical spelling. All are jwt-invalid; DESIGN's order holds.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isCanonicalBase64url, verifyGameJwt, type GameKeyLookup } from "./jwt";

const KEY = "api-key-of-game-a-0123456789";
const NOW = new Date(Date.UTC(2026, 0, 1, 12, 0, 0));
const now = Math.floor(NOW.getTime() / 1000);
const HOUR = 3600;

const b64 = (text: string) => Buffer.from(text).toString("base64url");
const sign = (input: string, key = KEY) => createHmac("sha256", key).update(input).digest("base64url");
/** A token from raw JSON texts (so duplicate keys survive), signed with the game's key. */
const rawToken = (header: string, payload: string) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${sign(input)}`;
};
const token = (claims: Record<string, unknown>, header: Record<string, unknown> = { alg: "HS256", typ: "JWT" }) => rawToken(JSON.stringify(header), JSON.stringify(claims));
const claims = (extra: Record<string, unknown> = {}) => ({ iss: "game-a", sub: "player-1", iat: now, exp: now + 15 * 60, ...extra });

const lookup =
  (maxTokenLifetimeSeconds?: number): GameKeyLookup =>
  async (gameId) =>
    gameId === "game-a" ? { environments: [{ tenant: "game-a", keys: [KEY], ...(maxTokenLifetimeSeconds ? { maxTokenLifetimeSeconds } : {}) }] } : null;
const verify = (jwt: string, maxLifetime?: number) => verifyGameJwt(jwt, lookup(maxLifetime), NOW);
const code = (jwt: string, maxLifetime?: number) => verify(jwt, maxLifetime).then(() => "ok", (error: { code?: string }) => error.code ?? String(error));

/** The same bytes spelled with another last character (unused low bits set). */
function withTrailingBits(part: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const last = alphabet.indexOf(part.at(-1)!);
  const unused = part.length % 4 === 2 ? 0x0f : 0x03;
  return part.slice(0, -1) + alphabet[last | unused];
}

describe("game JWT verification of absurd claims", () => {
  it("accepts an ordinary token (15 minutes, iat now)", async () => {
    expect(await verify(token(claims()))).toEqual({ gameId: "game-a", playerId: "player-1", exp: now + 900, via: "client" });
    expect(await code(token(claims({ iat: undefined })))).toBe("ok");
  });

  it("tells the rewards page's access token (marked by this service) from a game client's", async () => {
    expect((await verify(token(claims({ offers_via: "dashboard" })))).via).toBe("dashboard");
    expect((await verify(token(claims({ offers_via: "anything else" })))).via).toBe("client");
  });

  it("refuses a lifetime beyond the game's maximum: default 24 h, or the game's own", async () => {
    expect(await code(token(claims({ exp: now + 24 * HOUR })))).toBe("ok");
    expect(await code(token(claims({ exp: now + 24 * HOUR + 1 })))).toBe("jwt-invalid");
    // measured from iat when present, from now otherwise
    expect(await code(token(claims({ iat: now - 2 * HOUR, exp: now + 23 * HOUR })))).toBe("jwt-invalid");
    expect(await code(token(claims({ iat: undefined, exp: now + 25 * HOUR })))).toBe("jwt-invalid");
    // a game that allows one hour only
    expect(await code(token(claims({ exp: now + HOUR })), HOUR)).toBe("ok");
    expect(await code(token(claims({ exp: now + HOUR + 1 })), HOUR)).toBe("jwt-invalid");
  });

  it("refuses exp of 1e20 and exp in milliseconds", async () => {
    expect(await code(token(claims({ exp: 1e20 })))).toBe("jwt-invalid");
    expect(await code(token(claims({ exp: (now + 900) * 1000 })))).toBe("jwt-invalid");
    expect(await code(token(claims({ iat: undefined, exp: (now + 900) * 1000 })))).toBe("jwt-invalid");
  });

  it("refuses iat more than 5 s in the future, accepts it within 5 s", async () => {
    expect(await code(token(claims({ iat: now + 5 })))).toBe("ok");
    expect(await code(token(claims({ iat: now + 6 })))).toBe("jwt-invalid");
    expect(await code(token(claims({ iat: (now - 10) * 1000 })))).toBe("jwt-invalid");
  });

  it("refuses time claims that are not whole seconds", async () => {
    for (const bad of ["1767268800", now + 0.5, -1, null, true, [now + 900], { at: now + 900 }, 1e300]) {
      expect(await code(token(claims({ exp: bad }))), `exp ${JSON.stringify(bad)}`).toBe("jwt-invalid");
      expect(await code(token(claims({ iat: bad }))), `iat ${JSON.stringify(bad)}`).toBe("jwt-invalid");
      expect(await code(token(claims({ nbf: bad }))), `nbf ${JSON.stringify(bad)}`).toBe("jwt-invalid");
    }
    // nbf in milliseconds is not a time at all
    expect(await code(token(claims({ nbf: now * 1000 })))).toBe("jwt-invalid");
  });

  it("refuses duplicate keys in the payload and in the header, at any depth", async () => {
    const header = '{"alg":"HS256","typ":"JWT"}';
    expect(await code(rawToken(header, `{"iss":"game-a","sub":"player-1","exp":${now + 900}}`))).toBe("ok");
    expect(await code(rawToken(header, `{"iss":"game-a","sub":"player-1","exp":${now + 900},"sub":"admin"}`))).toBe("jwt-invalid");
    expect(await code(rawToken(header, `{"iss":"game-a","sub":"player-1","exp":${now - 900},"exp":${now + 900}}`))).toBe("jwt-invalid");
    expect(await code(rawToken(header, `{"iss":"game-a","sub":"player-1","exp":${now + 900},"ctx":{"a":1,"a":2}}`))).toBe("jwt-invalid");
    expect(await code(rawToken(header, `{"iss" : "game-a", "sub" :"player-1","exp":${now + 900},  "iss":"game-a"}`))).toBe("jwt-invalid");
    expect(await code(rawToken('{"alg":"none","alg":"HS256"}', `{"iss":"game-a","sub":"player-1","exp":${now + 900}}`))).toBe("jwt-invalid");
    // a name that contains quotes and colons is still one name
    expect(await code(rawToken(header, `{"iss":"game-a","sub":"player-1","exp":${now + 900},"x\\":\\"y":"a:b","z":"\\\\"}`))).toBe("ok");
  });

  it("refuses base64url that is not canonical: padding, other characters, trailing bits", async () => {
    const valid = token(claims());
    const [h, p, s] = valid.split(".");
    expect(await code(valid)).toBe("ok");
    expect(await code(`${h}.${p}.${s}=`)).toBe("jwt-invalid");
    expect(await code(`${h}=.${p}.${s}`)).toBe("jwt-invalid");
    expect(await code(`${h}.${p.replace(/-/g, "+").replace(/_/g, "/")}x+/.${s}`)).toBe("jwt-invalid");
    expect(await code(`${h}.${p} .${s}`)).toBe("jwt-invalid");
    // 32 bytes are 43 characters with two unused bits: another last character decodes to the same signature
    expect(Buffer.from(withTrailingBits(s), "base64url").equals(Buffer.from(s, "base64url"))).toBe(true);
    expect(await code(`${h}.${p}.${withTrailingBits(s)}`)).toBe("jwt-invalid");
    // the same for header and payload segments whose length leaves unused bits, signed anew
    let respelledSegments = 0;
    for (const pad of ["", "x", "xx"]) {
      const [oh, op] = token(claims({ pad }), { alg: "HS256", typ: "JWT", pad }).split(".");
      expect(await code(`${oh}.${op}.${sign(`${oh}.${op}`)}`)).toBe("ok");
      for (const respelled of [oh.length % 4 ? `${withTrailingBits(oh)}.${op}` : null, op.length % 4 ? `${oh}.${withTrailingBits(op)}` : null]) {
        if (!respelled) continue;
        respelledSegments += 1;
        expect(await code(`${respelled}.${sign(respelled)}`), respelled).toBe("jwt-invalid");
      }
    }
    expect(respelledSegments).toBeGreaterThanOrEqual(4);
  });

  it("tells canonical base64url apart", () => {
    expect(isCanonicalBase64url("AA")).toBe(true);
    expect(isCanonicalBase64url("AB")).toBe(false);
    expect(isCanonicalBase64url("AAA")).toBe(true);
    expect(isCanonicalBase64url("AAB")).toBe(false);
    expect(isCanonicalBase64url("AAAA")).toBe(true);
    expect(isCanonicalBase64url("AAAAA")).toBe(false);
    expect(isCanonicalBase64url("AA==")).toBe(false);
    expect(isCanonicalBase64url("A+/A")).toBe(false);
    expect(isCanonicalBase64url("")).toBe(false);
    for (let i = 0; i < 200; i++) {
      const bytes = Buffer.from(Array.from({ length: i % 40 }, (_, j) => (i * 31 + j * 7) % 256));
      if (bytes.length) expect(isCanonicalBase64url(bytes.toString("base64url"))).toBe(true);
    }
  });

  it("keeps DESIGN's order: earlier checks win over the new ones", async () => {
    // missing iss before anything about time
    expect(await code(token(claims({ iss: undefined, exp: 1e20 })))).toBe("jwt-missing-gameId");
    // unknown game before lifetime
    expect(await code(token(claims({ iss: "ghost", exp: now + 100 * HOUR })))).toBe("unknown-gameId");
    // missing sub before lifetime
    expect(await code(token(claims({ sub: undefined, iat: now + 3600 })))).toBe("jwt-missing-playerId");
    // a wrong signature before lifetime
    const input = `${b64(JSON.stringify({ alg: "HS256" }))}.${b64(JSON.stringify(claims({ exp: 1e20 })))}`;
    expect(await code(`${input}.${sign(input, "another-key-0123456789")}`)).toBe("jwt-invalid");
    // expired and not-yet-valid keep their codes when the claims are sane
    expect(await code(token(claims({ iat: now - 1000, exp: now - 10 })))).toBe("jwt-expired");
    expect(await code(token(claims({ nbf: now + 60 })))).toBe("jwt-not-yet-valid");
  });
});
