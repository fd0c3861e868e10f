// The rewards link under attack, end to end: the portal's redeem route against a real offers service
// (listening on loopback, its limit per address at 40 a minute). One address hammers made-up
// tokens while 45 players, each from an address of their own, open their links: every player gets
// in, and the hammering address is told to wait, its players' good tokens left unspent. Each
// request reaches the route with the address the portal believes (X-Forwarded-For, as the proxy or
// Next.js itself sets it: lib/portal/http/client-address.ts).
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOffersTestApp, type OffersTestContext } from "@/lib/offers/testing";

const LIMIT = 40;
const HAMMER = "127.0.0.200";
let offers: OffersTestContext;
let GET: (request: Request) => Promise<Response>;

beforeAll(async () => {
  offers = await startOffersTestApp("pglite", { rateLimit: { clientPerMinute: LIMIT, serverPerMinute: 0 } });
  await offers.app.listen({ host: "127.0.0.1", port: 0 });
  process.env.OFFERS_BASE_URL = `http://127.0.0.1:${(offers.app.server.address() as AddressInfo).port}`;
  // The portal's credential: the same admin token as the service's (lib/offers/testing).
  process.env.OFFERS_ADMIN_TOKEN = "test-admin-token-0123456789";
  ({ GET } = await import("./route"));
}, 60_000);
afterAll(async () => offers?.close());

const open = (from: string, token: string) =>
  GET(new Request(`http://portal.test/rewards/redeem?${new URLSearchParams({ token, gameId: offers.game.gameId })}`, { headers: { "x-forwarded-for": from } }));

describe("redeeming rewards links while one address hammers made-up tokens", () => {
  it("lets 45 players from 45 addresses in, and tells the hammering address to wait without spending its players' tokens", { timeout: 120_000 }, async () => {
    const players = await Promise.all(Array.from({ length: 45 }, async (_, i) => ({ address: `127.0.0.${i + 1}`, playerId: `player-${i + 1}`, token: await offers.app.offers.tokens.generate(offers.game.gameId, `player-${i + 1}`) })));

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
    const neighbour = await offers.app.offers.tokens.generate(offers.game.gameId, "neighbour");
    const waiting = await open(HAMMER, neighbour);
    expect(waiting.headers.get("location")).toMatch(/^\/rewards\?error=unavailable&retryAfter=\d+$/);
    await expect(offers.app.offers.tokens.redeem(neighbour, offers.game.gameId)).resolves.toMatchObject({ playerId: "neighbour" });
  });
});
