// The Claim buttons' route against a stand-in offers service: a claim from the page answers the
// claim's state as JSON, a form posted without scripts comes back to the page, and a claim from
// another site is refused with 403 before the service is called.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

let cookie: string | undefined;
vi.mock("next/headers", () => ({ cookies: async () => ({ get: (name: string) => (name === "rewards_session" && cookie ? { name, value: cookie } : undefined), has: () => false }) }));

let claims: unknown[] = [];
let server: Server;
let POST: (request: Request) => Promise<Response>;

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      claims.push({ url: req.url, authorization: req.headers.authorization, body: JSON.parse(text || "null") });
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ message: "Rewards claimed." }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.OFFERS_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The settings are read once per module graph: a fresh graph reads the ones stubbed above.
  vi.resetModules();
  ({ POST } = await import("./route"));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const exp = Math.floor(Date.now() / 1000) + 900;
const accessToken = ["e30", Buffer.from(JSON.stringify({ iss: "demo-game", sub: "p1", exp })).toString("base64url"), "sig"].join(".");

function claim(headers: Record<string, string>) {
  const form = new FormData();
  form.set("kind", "offer");
  form.set("instanceId", "instance-1");
  return POST(new Request("http://portal.test/rewards/claim", { method: "POST", body: form, headers: { host: "portal.test", ...headers } }));
}

describe("POST /rewards/claim", () => {
  it("claims with the player's session and answers the claim's state to the page's script", async () => {
    cookie = accessToken;
    claims = [];
    const response = await claim({ origin: "http://portal.test", "sec-fetch-site": "same-origin", accept: "application/json" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "claimed", message: "Rewards claimed.", instanceId: "instance-1" });
    expect(claims).toEqual([{ url: "/v1/client/reward/claim", authorization: `Bearer ${accessToken}`, body: { kind: "offer", instanceId: "instance-1" } }]);
  });

  it("sends a form posted without scripts back to the page", async () => {
    cookie = accessToken;
    const response = await claim({ origin: "http://portal.test" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/rewards");
  });

  it("says the session has expired when there is none", async () => {
    cookie = undefined;
    const response = await claim({ origin: "http://portal.test", accept: "application/json" });
    expect(await response.json()).toMatchObject({ status: "error", message: "Your session has expired. Reopen the rewards link from the game." });
  });

  it("refuses a claim from another site with 403, without calling the service", async () => {
    cookie = accessToken;
    claims = [];
    for (const headers of [{ origin: "http://evil.example" } as Record<string, string>, { "sec-fetch-site": "cross-site", origin: "http://evil.example" }, { "sec-fetch-site": "same-site", origin: "http://sub.portal.test" }]) {
      const response = await claim({ ...headers, accept: "application/json" });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(await response.json()).toMatchObject({ status: "error" });
    }
    expect(claims).toEqual([]);
  });
});
