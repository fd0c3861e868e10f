/**
 * Every answer of the offers service carries the security headers: API answers (success, refusal,
 * 404, probes, the OpenAPI document) may do nothing as a page and may not be framed; the docs page
 * (swagger-ui) has a policy of its own that lets only its own files run, and may not be framed either.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

const frameAncestors = (csp: unknown) => String(csp).split(";").map((d) => d.trim()).find((d) => d.startsWith("frame-ancestors"));
const directive = (csp: unknown, name: string) => String(csp).split(";").map((d) => d.trim()).find((d) => d.split(" ")[0] === name);

describe.each(testDatabaseTargets())("offers security headers on %s", (target) => {
  let t: OffersTestContext;
  beforeAll(async () => {
    t = await startOffersTestApp(target);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("are on every API answer: success, refusal, bad input, 404, probes and the OpenAPI document", async () => {
    const answers = {
      campaigns: await t.inject({ method: "POST", url: "/v1/client/player/campaigns", headers: { "x-game-jwt": await t.jwt("player-1") }, payload: {} }),
      refused: await t.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: { "x-api-key": "wrong", "x-client-id": "nobody" }, payload: { playerId: "p" } }),
      badInput: await t.inject({ method: "POST", url: "/v1/player/campaigns/refresh", headers: t.apiHeaders(), payload: { playerId: 42 } }),
      missing: await t.inject({ method: "GET", url: "/v1/nothing-here" }),
      health: await t.inject({ method: "GET", url: "/health" }),
      openapi: await t.inject({ method: "GET", url: "/v1/openapi.json" }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, answer.statusCode]))).toEqual({
      campaigns: 200, refused: 401, badInput: 400, missing: 404, health: 200, openapi: 200,
    });
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.headers["content-security-policy"], name).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(answer.headers["x-frame-options"], name).toBe("DENY");
      expect(answer.headers["x-content-type-options"], name).toBe("nosniff");
      expect(answer.headers["referrer-policy"], name).toBe("no-referrer");
    }
  });

  it("let the docs page load only its own files, and nobody frame it", async () => {
    const page = await t.inject({ method: "GET", url: "/v1/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    const csp = page.headers["content-security-policy"];
    expect(frameAncestors(csp)).toBe("frame-ancestors 'none'");
    expect(directive(csp, "script-src")).toBe("script-src 'self'");
    expect(directive(csp, "default-src")).toBe("default-src 'none'");
    expect(page.headers["x-frame-options"]).toBe("DENY");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
    // What the page loads is from this service, and no script is inline (the policy would refuse it).
    const sources = [...page.body.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources.length).toBeGreaterThan(3);
    for (const source of sources) expect(source).toMatch(/^\.\/static\//);
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const file of ["/v1/docs/static/swagger-ui-bundle.js", "/v1/docs/static/swagger-initializer.js", "/v1/docs/json"]) {
      const answer = await t.inject({ method: "GET", url: file });
      expect(answer.statusCode, file).toBe(200);
      expect(frameAncestors(answer.headers["content-security-policy"]), file).toBe("frame-ancestors 'none'");
      expect(answer.headers["x-content-type-options"], file).toBe("nosniff");
    }
  });
});
