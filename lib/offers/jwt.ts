/**
 * Verification of game JWTs (HS256, secret = one of the game's active API keys) in exactly the
 * order DESIGN fixes, so a token with several faults always yields the same code:
 *   1. unreadable → jwt-invalid: not three canonical base64url segments (no padding, only the
 *      alphabet, zero trailing bits), header or payload not a JSON object, or a duplicate key;
 *   2. no iss → jwt-missing-gameId;
 *   3. unknown game → unknown-gameId (also an iss that breaks the identifier rule: no game has it);
 *   4. alg ≠ HS256 or bad signature → jwt-invalid;
 *   5. no sub → jwt-missing-playerId; a sub that breaks the identifier rule → jwt-invalid;
 *   6. exp missing or absurd → jwt-invalid: exp, iat or nbf not whole seconds from 1970 to 9999
 *      (so milliseconds are refused), iat more than 5 s ahead, exp − (iat, else now) over the
 *      game's maximum token lifetime;
 *   7. exp passed → jwt-expired;  8. nbf ahead (tolerance 5 s) → jwt-not-yet-valid.
 * RFC 8725: the algorithm is pinned (none/None/HS512/RS256 refused), kid/jku/x5u/jwk are ignored
 * (keys come only from our database, nothing is fetched), crit and b64 are refused, size is bounded.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { SignJWT } from "jose";
import { statusOf } from "./errors";
import { isIdentifier, type JwtErrorCode } from "./contract";

/** Clock skew accepted on nbf and iat. exp gets none: a token whose exp equals now is expired. */
export const CLOCK_TOLERANCE_SECONDS = 5;
/** Used when the lookup does not name the game's maximum (DEFAULT of games.max_token_lifetime_seconds). */
const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 24 * 3600;
/** Longer tokens are refused unread (a game JWT is a few hundred bytes). */
export const MAX_JWT_LENGTH = 4096;
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export class JwtError extends Error {
  /** From the one status table (../errors): 400 for a missing claim, 401 for the rest. */
  readonly status: 400 | 401;
  constructor(readonly code: JwtErrorCode) {
    super(code);
    this.status = statusOf[code];
  }
}

export interface VerifiedJwt {
  gameId: string;
  playerId: string;
  /** Unix seconds. */
  exp: number;
  /** Who holds it: the rewards page (a JWT this service issued for a one-time token) or a game client. */
  via: "client" | "dashboard";
}

/**
 * Private claim of the access JWTs that redeeming a one-time token issues: claims made with them are
 * recorded as made on the rewards page (`source: "dashboard"` of reward.granted). A game server
 * signs with the same key and could set it too; it only labels the game's own events.
 */
export const VIA_CLAIM = "offers_via";

/**
 * Answers a game's environments, each with its active keys (newest first), its tenant and its
 * longest token lifetime, or null when the game is unknown. The key that verifies decides the environment.
 */
export type GameKeyLookup = (gameId: string) => Promise<{ environments: Array<{ tenant: string; keys: string[]; maxTokenLifetimeSeconds?: number }> } | null>;

const encoder = new TextEncoder();
const base64urlAlphabet = /^[A-Za-z0-9_-]+$/;

/** Value of one base64url character (the alphabet is already checked). */
function sextet(code: number): number {
  if (code >= 97) return code - 71; // a–z → 26–51
  if (code >= 65) return code - 65; // A–Z → 0–25
  if (code >= 48) return code === 95 ? 63 : code + 4; // 0–9 → 52–61, _ → 63
  return 62; // -
}

/**
 * RFC 7515 base64url without padding, in its one canonical spelling: a length that is not 1 mod 4,
 * and the unused low bits of the last character zero. Otherwise several spellings decode to the
 * same bytes (a signature with another last character would verify).
 */
export function isCanonicalBase64url(part: string): boolean {
  if (!base64urlAlphabet.test(part)) return false;
  const rest = part.length % 4;
  if (rest === 0) return true;
  if (rest === 1) return false;
  const last = sextet(part.charCodeAt(part.length - 1));
  return rest === 2 ? (last & 0x0f) === 0 : (last & 0x03) === 0;
}

/**
 * How many member names a JSON text that JSON.parse accepted has: every string followed by `:`.
 * Jumps from quote to quote (a quote after an odd run of backslashes is inside the string).
 */
function memberNamesInText(text: string): number {
  let names = 0;
  let start = text.indexOf('"');
  while (start !== -1) {
    let end = text.indexOf('"', start + 1);
    for (;;) {
      if (end === -1) return names; // unreachable on text JSON.parse accepted
      let slashes = 0;
      for (let k = end - 1; text.charCodeAt(k) === 92; k--) slashes++;
      if (slashes % 2 === 0) break;
      end = text.indexOf('"', end + 1);
    }
    let next = end + 1;
    let c = text.charCodeAt(next);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++next);
    if (c === 58) names++;
    start = text.indexOf('"', end + 1);
  }
  return names;
}

/** How many members the parsed value has, over every nested object. */
function membersInValue(value: unknown): number {
  if (value === null || typeof value !== "object") return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const item of value) n += membersInValue(item);
    return n;
  }
  for (const key in value) n += 1 + membersInValue((value as Record<string, unknown>)[key]);
  return n;
}

/**
 * A JSON object from a canonical base64url segment, or null. JSON.parse keeps the last of two
 * equal names, so a text with more names than the parsed value had a duplicate (RFC 7515 §5.2:
 * such a JWS must be rejected).
 */
function decodeJsonObject(part: string): Record<string, unknown> | null {
  if (!part || !isCanonicalBase64url(part)) return null;
  try {
    const text = Buffer.from(part, "base64url").toString("utf8");
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
    return memberNamesInText(text) === membersInValue(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The last second of year 9999: a larger NumericDate is milliseconds (or nonsense), not seconds. */
const LAST_NUMERIC_DATE = 253_402_300_799;

/** A NumericDate as game servers write it: whole seconds from 1970 to 9999. */
const isWholeSeconds = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= LAST_NUMERIC_DATE;

/** Takes the token from `x-game-jwt`, else from `Authorization: Bearer`. */
export function extractJwt(headers: Record<string, string | string[] | undefined>): string | undefined {
  const direct = headers["x-game-jwt"];
  if (typeof direct === "string" && direct.trim()) return direct.trim();
  const auth = headers["authorization"];
  if (typeof auth === "string") {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (match) return match[1];
  }
  return undefined;
}

export async function verifyGameJwt(token: string | undefined, lookup: GameKeyLookup, now: Date): Promise<VerifiedJwt> {
  // 1. unreadable
  if (!token || token.length > MAX_JWT_LENGTH) throw new JwtError("jwt-invalid");
  const parts = token.split(".");
  if (parts.length !== 3) throw new JwtError("jwt-invalid");
  const header = decodeJsonObject(parts[0]);
  const payload = decodeJsonObject(parts[1]);
  if (!header || !payload || !isCanonicalBase64url(parts[2])) throw new JwtError("jwt-invalid");

  // 2. iss
  const iss = payload.iss;
  if (iss === undefined || iss === null || iss === "") throw new JwtError("jwt-missing-gameId");
  if (typeof iss !== "string") throw new JwtError("jwt-invalid");

  // 3. game. Game ids follow the identifier rule, so any other iss (NUL, emoji, "../x") names no game: no query.
  if (!isIdentifier(iss)) throw new JwtError("unknown-gameId");
  const game = await lookup(iss);
  if (!game) throw new JwtError("unknown-gameId");

  // 4. algorithm and signature. Header fields that would change how the token is read are refused.
  if (header.alg !== "HS256" || "crit" in header || "b64" in header) throw new JwtError("jwt-invalid");
  // HS256 is HMAC-SHA-256 over "header.payload" (RFC 7515); node:crypto checks it in ~3 µs where
  // jose's WebCrypto path took ~60–80 µs, on the hot path of every client request.
  const signature = Buffer.from(parts[2], "base64url");
  const signingInput = `${parts[0]}.${parts[1]}`;
  // Any active key of either environment verifies (rotation); the one that does names the environment.
  const verified = game.environments.find((environment) =>
    environment.keys.some((key) => {
      const expected = createHmac("sha256", key).update(signingInput).digest();
      return signature.length === expected.length && timingSafeEqual(signature, expected);
    }),
  );
  if (!verified) throw new JwtError("jwt-invalid");

  // 5. sub: present, and a player id by the same rule as every other player id of the API. The
  // token is genuine but cannot name a player, so jwt-invalid ("check JWT generation").
  const sub = payload.sub;
  if (sub === undefined || sub === null || sub === "") throw new JwtError("jwt-missing-playerId");
  if (!isIdentifier(sub)) throw new JwtError("jwt-invalid");

  // 6. exp, and the time claims being whole seconds that make sense together
  const { exp, iat, nbf } = payload;
  if (!isWholeSeconds(exp)) throw new JwtError("jwt-invalid");
  if (iat !== undefined && !isWholeSeconds(iat)) throw new JwtError("jwt-invalid");
  if (nbf !== undefined && !isWholeSeconds(nbf)) throw new JwtError("jwt-invalid");
  const nowSeconds = now.getTime() / 1000;
  if (iat !== undefined && iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) throw new JwtError("jwt-invalid");
  const maxLifetime = verified.maxTokenLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
  if (exp - (iat ?? nowSeconds) > maxLifetime) throw new JwtError("jwt-invalid");

  // 7. expired (no tolerance: exp equal to now is expired)
  if (exp <= nowSeconds) throw new JwtError("jwt-expired");

  // 8. nbf
  if (nbf !== undefined && nbf > nowSeconds + CLOCK_TOLERANCE_SECONDS) throw new JwtError("jwt-not-yet-valid");

  // gameId: the tenant of the environment whose key verified (./environments).
  return { gameId: verified.tenant, playerId: sub, exp, via: payload[VIA_CLAIM] === "dashboard" ? "dashboard" : "client" };
}

/** Signs a player's access token the way a game server would (HS256 with the game's API key). */
export async function signGameJwt(input: { gameId: string; playerId: string; apiKey: string; now: Date; ttlSeconds?: number; via?: "dashboard" }): Promise<string> {
  const iat = Math.floor(input.now.getTime() / 1000);
  return new SignJWT(input.via ? { [VIA_CLAIM]: input.via } : {})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(input.gameId)
    .setSubject(input.playerId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + (input.ttlSeconds ?? ACCESS_TOKEN_TTL_SECONDS))
    .sign(encoder.encode(input.apiKey));
}
