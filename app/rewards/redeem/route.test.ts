// The redeem step of /rewards against a stand-in offers service: the cookie it sets (httpOnly,
// SameSite=Lax, /rewards, Secure behind TLS), the redirect without the token, and the mapping of
// every failure to the message the page shows.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";


type Answer = { status: number; body: unknown } | "hang-up";
let answer: Answer = { status: 200, body: {} };
let seen: unknown;
let server: Server;
let GET: (request: Request) => Promise<Response>;
let sessionFromToken: typeof import("../session").sessionFromToken;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      seen = { url: req.url, body: JSON.parse(text || "null") };
      if (answer === "hang-up") return req.socket.destroy();
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.OFFERS_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
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
    [{ status: 503, body: { message: "unavailable" } }, "unavailable"],
    [{ status: 200, body: { unexpected: true } }, "unavailable"],
    ["hang-up", "unavailable"],
  ] as [Answer, string][])("maps %j to ?error=%s without a cookie", async (given, problem) => {
    answer = given;
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await open("token=abc&gameId=demo-game");
    errors.mockRestore();
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(`/rewards?error=${problem}`);
    expect(response.headers.get("set-cookie")).toBeNull();
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
