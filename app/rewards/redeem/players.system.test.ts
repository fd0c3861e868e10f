// The rewards link under attack, end to end: the portal's redeem route against the offers service
// running as its own process (its limit per address at 40 a minute). One address hammers made-up
// tokens while 45 players, each from an address of their own, open their links: every player gets
// in, and the hammering address is told to wait, its players' good tokens left unspent. Each
// request reaches the route with the address the portal believes (X-Forwarded-For, as the proxy or
// Next.js itself sets it: lib/portal/http/client-address.ts).
import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOffersServiceForTests, type OffersServiceForTests } from "@/test-support/portal/test-portal";

const LIMIT = 40;
const HAMMER = "127.0.0.200";
const GAME = "demo-game";
let offers: OffersServiceForTests;
let GET: (request: Request) => Promise<Response>;

beforeAll(async () => {
  offers = await startOffersServiceForTests({ OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: String(LIMIT) });
  process.env.OFFERS_BASE_URL = offers.baseUrl;
  // The portal's credential: the service's admin token.
  process.env.OFFERS_ADMIN_TOKEN = offers.admin.token;
  ({ GET } = await import("./route"));
}, 120_000);
afterAll(async () => offers?.close());

/** A one-time token of the player, as the game client gets it (POST /v1/auth/one_time_token/generate with the player's JWT). */
async function oneTimeToken(playerId: string): Promise<string> {
  const jwt = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuer(GAME).setSubject(playerId).setIssuedAt().setExpirationTime("15m").sign(new TextEncoder().encode("demo-api-key"));
  const response = await fetch(`${offers.baseUrl}/v1/auth/one_time_token/generate`, { method: "POST", headers: { Authorization: `Bearer ${jwt}`, "Content-Type": "application/json" }, body: "{}" });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

const open = (from: string, token: string) => GET(new Request(`http://portal.test/rewards/redeem?${new URLSearchParams({ token, gameId: GAME })}`, { headers: { "x-forwarded-for": from } }));

describe("redeeming rewards links while one address hammers made-up tokens", () => {
  it("lets 45 players from 45 addresses in, and tells the hammering address to wait without spending its players' tokens", { timeout: 120_000 }, async () => {
    const players = [];
    for (let i = 1; i <= 45; i++) players.push({ address: `127.0.0.${i}`, token: await oneTimeToken(`player-${i}`) });

    const hammered: string[] = [];
    for (let i = 0; i < LIMIT + 20; i++) hammered.push((await open(HAMMER, randomBytes(32).toString("base64url"))).headers.get("location")!);

    // Every player gets in, with a session.
    const outcomes = [];
    for (const player of players) {
      const response = await open(player.address, player.token);
      outcomes.push({ address: player.address, location: response.headers.get("location"), session: (response.headers.get("set-cookie") ?? "").includes("rewards_session=") });
    }
    expect(outcomes).toEqual(players.map((player) => ({ address: player.address, location: "/rewards", session: true })));

    // The hammering address met made-up tokens, then was told to wait (not that its links are invalid).
    expect(hammered.slice(0, LIMIT).every((location) => location === "/rewards?error=invalid")).toBe(true);
    expect(hammered.at(-1)).toMatch(/^\/rewards\?error=unavailable&retryAfter=\d+$/);

    // A player behind the hammering address (one NAT) is asked to wait, and their token still works.
    const neighbour = await oneTimeToken("neighbour");
    expect((await open(HAMMER, neighbour)).headers.get("location")).toMatch(/^\/rewards\?error=unavailable&retryAfter=\d+$/);
    const direct = await fetch(`${offers.baseUrl}/v1/auth/one_time_token/redeem`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token: neighbour, gameId: GAME }) });
    expect(direct.status).toBe(200);
    expect(await direct.json()).toMatchObject({ playerId: "neighbour" });
  });
});
