// The redeem step of /rewards against a stand-in offers service: the cookie it sets (httpOnly,
// SameSite=Lax, /rewards, Secure behind TLS), the redirect without the token, and the mapping of
// every failure to the message the page shows.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";


type Answer = { status: number; body: unknown; headers?: Record<string, string> } | "hang-up";
let answer: Answer = { status: 200, body: {} };
let seen: unknown;
let seenHeaders: Record<string, unknown> = {};
let server: Server;
let GET: (request: Request) => Promise<Response>;
let sessionFromToken: typeof import("../session").sessionFromToken;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      seen = { url: req.url, body: JSON.parse(text || "null") };
      seenHeaders = req.headers;
      if (answer === "hang-up") return req.socket.destroy();
      res.writeHead(answer.status, { "Content-Type": "application/json", ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.OFFERS_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.OFFERS_ADMIN_TOKEN = "portal-route-test-admin-token-0123";
  ({ GET } = await import("./route"));
  ({ sessionFromToken } = await import("../session"));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

// A JWT-shaped token (the route only passes it on; the page decodes iss, sub and exp).
const exp = Math.floor(Date.now() / 1000) + 900;
const accessToken = ["e30", Buffer.from(JSON.stringify({ iss: "demo-game", sub: "p1", exp })).toString("base64url"), "sig"].join(".");

const open = (query: string, headers: Record<string, string> = {}) => GET(new Request(`http://portal.test/rewards/redeem?${query}`, { headers }));

describe("GET /rewards/redeem", () => {
  it("redeems the token, keeps the access token in an httpOnly cookie and redirects to /rewards", async () => {
    answer = { status: 200, body: { playerId: "p1", gameId: "demo-game", accessToken } };
    const response = await open("token=abc&gameId=demo-game");
    expect(seen).toEqual({ url: "/v1/auth/one_time_token/redeem", body: { token: "abc", gameId: "demo-game" } });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/rewards");
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toContain(`rewards_session=${accessToken}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=lax/i);
    expect(cookie).toMatch(/Path=\/rewards/);
    expect(cookie).not.toMatch(/Secure/i);

    const secure = await open("token=abc&gameId=demo-game", { "x-forwarded-proto": "https" });
    expect(secure.headers.get("set-cookie")).toMatch(/Secure/i);
  });

  it.each([
    [{ status: 410, body: { message: "token-used" } }, "used"],
    [{ status: 410, body: { message: "token-expired" } }, "expired"],
    [{ status: 401, body: { message: "token-invalid" } }, "invalid"],
    [{ status: 429, body: { message: "rate-limited" } }, "unavailable"],
    [{ status: 503, body: { message: "unavailable" } }, "unavailable"],
    [{ status: 200, body: { unexpected: true } }, "unavailable"],
    ["hang-up", "unavailable"],
  ] as [Answer, string][])("maps %j to ?error=%s without a session, keeping the token only when it may still work", async (given, problem) => {
    answer = given;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await open("token=abc&gameId=demo-game");
    errors.mockRestore();
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/rewards?error=${problem}`);
    const cookies = response.headers.get("set-cookie") ?? "";
    expect(cookies).not.toContain("rewards_session=");
    // A used, expired or invalid token is dropped; one the service could not look at is kept for "try again".
    expect(/rewards_pending_token=[^;]/.test(cookies)).toBe(problem === "unavailable");
  });

  it("redeems with the portal's credential and the player's address, so the service limits each player's address", async () => {
    answer = { status: 200, body: { playerId: "p1", gameId: "demo-game", accessToken } };
    await open("token=abc&gameId=demo-game", { "x-forwarded-for": "203.0.113.9" });
    expect(seenHeaders).toMatchObject({ authorization: "Bearer portal-route-test-admin-token-0123", "x-offers-client-address": "203.0.113.9" });
    // No address to believe: nothing relayed, the portal's own address counts.
    await open("token=abc&gameId=demo-game", { "x-forwarded-for": "garbage" });
    expect(seenHeaders.authorization).toBeUndefined();
    expect(seenHeaders["x-offers-client-address"]).toBeUndefined();
  });

  it("on too many redeems says the rewards are busy for Retry-After seconds, and keeps the unspent token for \"try again\"", async () => {
    answer = { status: 429, body: { message: "rate-limited" }, headers: { "Retry-After": "17" } };
    const refused = await open("token=kept-token&gameId=demo-game", { "x-forwarded-for": "203.0.113.9" });
    expect(refused.headers.get("location")).toBe("/rewards?error=unavailable&retryAfter=17");
    const pending = /rewards_pending_token=([^;]*)/.exec(refused.headers.get("set-cookie") ?? "")?.[1];
    expect(pending).toBeTruthy();
    expect(refused.headers.get("set-cookie")).toMatch(/HttpOnly/i);
    expect(refused.headers.get("set-cookie")).toMatch(/Path=\/rewards/);

    // "Try again": the same token, from the cookie; a success clears it.
    answer = { status: 200, body: { playerId: "p1", gameId: "demo-game", accessToken } };
    const again = await open("", { cookie: `rewards_pending_token=${pending}` });
    expect(seen).toEqual({ url: "/v1/auth/one_time_token/redeem", body: { token: "kept-token", gameId: "demo-game" } });
    expect(again.headers.get("location")).toBe("/rewards");
    expect(again.headers.get("set-cookie")).toContain(`rewards_session=${accessToken}`);
    expect(again.headers.get("set-cookie")).toMatch(/rewards_pending_token=;/);
  });

  it("refuses a link without a token or game before calling the service", async () => {
    seen = undefined;
    for (const query of ["gameId=demo-game", "token=abc", "token=abc&gameId=has%20space", `token=${"x".repeat(300)}&gameId=g`]) {
      expect((await open(query)).headers.get("location")).toBe("/rewards?error=invalid");
    }
    expect(seen).toBeUndefined();
  });
});

describe("rewards session", () => {
  it("reads player, game and expiry from the JWT, and says when it has expired", () => {
    expect(sessionFromToken(accessToken, Date.now())).toMatchObject({ gameId: "demo-game", playerId: "p1", expiresAt: exp * 1000, expired: false });
    expect(sessionFromToken(accessToken, (exp + 1) * 1000)?.expired).toBe(true);
    expect(sessionFromToken(undefined)).toBeNull();
    expect(sessionFromToken("garbage")).toBeNull();
  });
});
