/**
 * Bad input on every endpoint, with valid credentials: malformed JSON, non-object bodies, wrong
 * types, missing fields, a 70 KB body, a wrong content type. Always a 4xx with DESIGN's body,
 * never a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { demoDefinitions, demoImages } from "./demo";
import { ImageUrl, OfferDefinitionInput } from "./contract";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

type Auth = "jwt" | "apiKey" | "none";
interface Endpoint {
  method: "POST" | "PUT";
  url: string;
  auth: Auth;
  wrongTypes: unknown;
  /** Empty object is a valid body for some endpoints. */
  emptyIsValid?: boolean;
}

const endpoints: Endpoint[] = [
  { method: "POST", url: "/v1/auth/one_time_token/generate", auth: "jwt", wrongTypes: "a string", emptyIsValid: true },
  { method: "POST", url: "/v1/auth/one_time_token/redeem", auth: "none", wrongTypes: { token: 1, gameId: true } },
  { method: "POST", url: "/v1/client/player/campaigns", auth: "jwt", wrongTypes: { viewingCampaigns: "yes" }, emptyIsValid: true },
  { method: "POST", url: "/v1/client/player/referrals", auth: "jwt", wrongTypes: "a string", emptyIsValid: true },
  { method: "POST", url: "/v1/player/campaigns/refresh", auth: "apiKey", wrongTypes: { playerId: 5, viewingCampaigns: 1 } },
  { method: "POST", url: "/v1/client/reward/claim", auth: "jwt", wrongTypes: { kind: "coupon", instanceId: 3 } },
  { method: "POST", url: "/v1/reward/sdk/claim", auth: "apiKey", wrongTypes: { kind: "offer", instanceId: "x", playerId: [] } },
  { method: "PUT", url: "/v1/offers/definitions/some-offer", auth: "apiKey", wrongTypes: { name: 1, rewards: "x", durationSeconds: "1h" } },
  { method: "POST", url: "/v1/player/offers/assign", auth: "apiKey", wrongTypes: { playerId: "p", offerId: {} } },
  { method: "POST", url: "/v1/player/snapshot", auth: "apiKey", wrongTypes: { playerId: "p", currencies: { gold: { balance: "a" } } } },
  { method: "POST", url: "/v1/referrals", auth: "apiKey", wrongTypes: { referrerId: "a", refereeId: "b", rewards: [{ kind: "cash" }] } },
  { method: "PUT", url: "/v1/currencies/gold", auth: "apiKey", wrongTypes: { name: "Gold", image: "not a url" } },
  { method: "POST", url: "/v1/player/rewards/grant", auth: "apiKey", wrongTypes: { playerId: "p", kind: "coins", rewardId: "gold", amount: "10", reason: 5 } },
  { method: "POST", url: "/v1/player/offers/some-instance/expire", auth: "apiKey", wrongTypes: { playerId: 1, reason: [] } },
  { method: "POST", url: "/v1/player/offers/some-instance/extend", auth: "apiKey", wrongTypes: { playerId: "p", reason: "r", expiresAt: 5 } },
];

describe.each(testDatabaseTargets())("bad input on %s", (target) => {
  let t: OffersTestContext;
  let jwt: string;
  const headersFor = (auth: Auth): Record<string, string> =>
    auth === "jwt" ? { "x-game-jwt": jwt } : auth === "apiKey" ? t.apiHeaders() : {};
  const send = (e: Endpoint, payload: string, contentType = "application/json") =>
    t.inject({ method: e.method, url: e.url, headers: { ...headersFor(e.auth), "content-type": contentType }, payload });
  const expectInvalid = (res: Awaited<ReturnType<typeof send>>, label: string) => {
    expect(res.statusCode, `${label}: ${res.body}`).toBe(400);
    const body = res.json();
    expect(body.message, label).toBe("invalid-request");
    expect(Array.isArray(body.issues), label).toBe(true);
    expect(body.issues.length, label).toBeGreaterThan(0);
  };

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    jwt = await t.jwt("bad-input-player");
  });
  afterAll(async () => t?.close());

  describe.each(endpoints)("$method $url", (e) => {
    it("answers malformed JSON with 400 invalid-request", async () => {
      for (const payload of ['{"a":', "{'single':1}", "nope", '{"a":1}}', "\u0000"]) {
        expectInvalid(await send(e, payload), `${e.url} ${JSON.stringify(payload)}`);
      }
    });

    it("answers non-object JSON and wrong types with 400 invalid-request and the issues", async () => {
      for (const payload of ["[]", "42", "null", "true"]) {
        expectInvalid(await send(e, payload), `${e.url} ${payload}`);
      }
      const res = await send(e, JSON.stringify(e.wrongTypes));
      expectInvalid(res, `${e.url} wrong types`);
      for (const issue of res.json().issues) {
        expect(Array.isArray(issue.path)).toBe(true);
        expect(typeof issue.message).toBe("string");
      }
    });

    it("answers missing fields with 400 invalid-request (or 200 where {} is valid)", async () => {
      const res = await send(e, "{}");
      if (e.emptyIsValid) expect(res.statusCode).toBe(200);
      else expectInvalid(res, `${e.url} {}`);
    });

    it("answers a 70 KB body with 413", async () => {
      const res = await send(e, JSON.stringify({ playerId: "p", padding: "x".repeat(70 * 1024) }));
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ message: "payload-too-large" });
    });

    it("answers a non-JSON content type with 415, never 5xx for odd input", async () => {
      const res = await send(e, "playerId=p", "text/plain");
      expect(res.statusCode).toBe(415);
      const odd = ['{"playerId":"p","viewingCampaigns":1e999}', `{"playerId":"${"\u{1F600}".repeat(300)}"}`, `${"[".repeat(5000)}${"]".repeat(5000)}`, '{"__proto__":{"x":1},"playerId":"p"}', '{"playerId":"p\\u0000"}'];
      for (const payload of odd) {
        const r = await send(e, payload);
        expect(r.statusCode, `${e.url} ${payload.slice(0, 30)}: ${r.body.slice(0, 200)}`).toBeLessThan(500);
      }
    });
  });

  it("refuses path parameters that are not ids", async () => {
    const res = await t.inject({ method: "PUT", url: "/v1/offers/definitions/has%20space", headers: t.apiHeaders(), payload: { name: "x", rewards: [{ kind: "coins", rewardId: "c", name: "C", amount: 1 }], durationSeconds: 60 } });
    expectInvalid(res, "path");
  });

  it("refuses an image that is not an http(s) or data:image URL, naming the field, on every API that takes one", async () => {
    const admin = { authorization: "Bearer test-admin-token-0123456789" };
    const reward = { kind: "coins", rewardId: "gold", name: "Gold", amount: 5 };
    const definition = { name: "Images", durationSeconds: 60, rewards: [reward] };
    // Each request carries one bad image, at the path named.
    const cases = (image: string) => [
      { method: "PUT", url: "/v1/offers/definitions/images", headers: t.apiHeaders(), payload: { ...definition, image }, path: ["image"] },
      { method: "PUT", url: "/v1/offers/definitions/images", headers: t.apiHeaders(), payload: { ...definition, rewards: [{ ...reward, image }] }, path: ["rewards", 0, "image"] },
      {
        method: "PUT",
        url: "/v1/offers/definitions/images",
        headers: t.apiHeaders(),
        payload: { ...definition, rewards: undefined, variants: [{ variantId: "a", weight: 1, rewards: [reward] }, { variantId: "b", weight: 1, rewards: [{ ...reward, image }] }] },
        path: ["variants", 1, "rewards", 0, "image"],
      },
      { method: "PUT", url: "/v1/currencies/gold", headers: t.apiHeaders(), payload: { name: "Gold", image }, path: ["image"] },
      { method: "POST", url: "/v1/referrals", headers: t.apiHeaders(), payload: { referrerId: "r1", refereeId: "r2", rewards: [{ ...reward, image }] }, path: ["rewards", 0, "image"] },
      { method: "POST", url: "/v1/admin/games/game-a/definitions", headers: admin, payload: { offerId: "images", ...definition, image }, path: ["image"] },
      { method: "PUT", url: "/v1/admin/games/game-a/definitions/images", headers: { ...admin, "if-match": '"1"' }, payload: { ...definition, rewards: [{ ...reward, image }] }, path: ["rewards", 0, "image"] },
    ] as const;
    const hostile = ["javascript:alert(1)", "JavaScript:alert(document.cookie)", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==", "data:image/svg+xml,<svg onload=alert(1)>", "vbscript:msgbox(1)", "file:///etc/passwd", "//cdn.example.com/a.png"];
    for (const image of hostile) {
      for (const c of cases(image)) {
        const res = await t.inject({ method: c.method, url: c.url, headers: { ...c.headers, "content-type": "application/json" }, payload: JSON.stringify(c.payload) });
        expect(res.statusCode, `${c.url} ${image}`).toBe(400);
        expect(res.json(), `${c.url} ${image}`).toEqual({ message: "invalid-request", issues: [{ path: c.path, message: expect.stringContaining("http:// or https:// URL, or a data:image/") }] });
      }
    }
    // What a game does use still passes, the demo's inline SVG images included.
    for (const [offerId, demo] of Object.entries(demoDefinitions)) expect(OfferDefinitionInput.safeParse(demo).success, offerId).toBe(true);
    for (const image of Object.values(demoImages)) expect(ImageUrl.safeParse(image).success).toBe(true);
    for (const image of ["https://cdn.example.com/gold.png", "http://cdn.example.com/gold.png?v=2", "data:image/png;base64,iVBORw0KGgo=", "data:image/svg+xml;base64,PHN2Zy8+"]) {
      const res = await t.inject({ method: "PUT", url: "/v1/offers/definitions/images", headers: t.apiHeaders(), payload: { ...definition, image, rewards: [{ ...reward, image }] } });
      expect(res.statusCode, `${image}: ${res.body}`).toBe(200);
      expect((await t.inject({ method: "PUT", url: "/v1/currencies/gold", headers: t.apiHeaders(), payload: { name: "Gold", image } })).statusCode, image).toBe(200);
    }
  });

  it("answers an empty body where a JSON body is required with 400", async () => {
    const res = await t.inject({ method: "POST", url: "/v1/player/offers/assign", headers: { ...t.apiHeaders(), "content-type": "application/json" }, payload: "" });
    expectInvalid(res, "empty body");
  });
});
