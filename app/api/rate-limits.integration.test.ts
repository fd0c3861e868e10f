// Each portal user has a request budget on the API routes (lib/portal/rate-limit.ts): over it a route
// answers 429 rate-limited with Retry-After and RateLimit-*; another user is unaffected; sessions and
// personal API tokens of one user spend the same budget; with Redis, portal instances share it.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPortalRateLimiter, RateLimitedError } from "@/lib/portal/rate-limit";
import { buildPortalOpenApiDocument } from "@/lib/portal/http/openapi";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { portalRouteModules } from "./openapi.json/document";
import { GET as favorites } from "./components/favorites/route";

const LIMIT = 3;
const redisUrl = process.env.TEST_REDIS_URL;

describe("portal rate limits", () => {
  let portal: PortalTest;
  beforeAll(async () => {
    portal = await startPortalTest({ settings: (settings) => ({ ...settings, rateLimit: { perMinute: LIMIT } }) });
  }, 60_000);
  afterAll(async () => portal?.close());

  const call = (headers: Record<string, string>) => favorites(new Request("http://portal.test/api/components/favorites", { headers }));

  it("answers 429 rate-limited with Retry-After and RateLimit-* over a user's budget; another user is unaffected", async () => {
    const alice = await portal.signIn({ id: "alice", roles: ["engineer"] });
    const aliceToken = await portal.signIn({ id: "alice", roles: ["engineer"] }, "token");
    const remaining: string[] = [];
    for (const headers of [alice, aliceToken, alice]) {
      const res = await call(headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("RateLimit-Limit")).toBe(String(LIMIT));
      remaining.push(res.headers.get("RateLimit-Remaining")!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    for (const headers of [alice, aliceToken]) {
      const refused = await call(headers);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual({ message: "rate-limited", detail: expect.stringContaining("try again") });
      const retryAfter = Number(refused.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get("RateLimit-Remaining")).toBe("0");
      expect(refused.headers.get("RateLimit-Reset")).toBe(String(retryAfter));
    }
    const bob = await portal.signIn({ id: "bob", roles: ["engineer"] });
    expect((await call(bob)).status).toBe(200);
  });

  it("spends nothing on an unauthenticated request", async () => {
    for (let i = 0; i < LIMIT + 2; i++) expect((await call({})).status).toBe(401);
    const carol = await portal.signIn({ id: "carol", roles: ["engineer"] });
    const res = await call(carol);
    expect(res.status).toBe(200);
    expect(res.headers.get("RateLimit-Remaining")).toBe(String(LIMIT - 1));
  });
});

describe("portal rate limits in the OpenAPI document", () => {
  it("documents 429 rate-limited with Retry-After and RateLimit-* on every signed-in operation", async () => {
    const document = buildPortalOpenApiDocument(await portalRouteModules());
    // Error answers are shared responses (components/responses), referenced by each operation.
    const shared = (document.components?.responses ?? {}) as Record<string, { headers?: Record<string, unknown> }>;
    let limited = 0;
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(item ?? {})) {
        const op = operation as { security?: unknown[]; responses?: Record<string, { $ref?: string }> };
        if (!op.security || op.security.length === 0) continue;
        limited++;
        const answer = shared[op.responses?.["429"]?.$ref?.replace("#/components/responses/", "") ?? ""];
        expect(Object.keys(answer?.headers ?? {}).sort(), `${method} ${path}`).toEqual(["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "Retry-After"]);
      }
    }
    expect(limited).toBeGreaterThan(10);
  });
});

describe("portal rate limits without Redis", () => {
  it("counts in the process when the Redis is unreachable, refusing nothing under the budget", async () => {
    const limiter = createPortalRateLimiter({ perMinute: 2, redisUrl: "redis://127.0.0.1:1" });
    try {
      expect((await limiter.spend("user:dora"))?.remaining).toBe(1);
      expect((await limiter.spend("user:dora"))?.remaining).toBe(0);
      await expect(limiter.spend("user:dora")).rejects.toBeInstanceOf(RateLimitedError);
    } finally {
      await limiter.close();
    }
  });
});

describe.skipIf(!redisUrl)("portal instances sharing Redis", () => {
  it("spend one budget", async () => {
    const keyPrefix = `portal-rate-limit-test-${randomBytes(6).toString("hex")}`;
    const instances = [createPortalRateLimiter({ perMinute: 4, redisUrl, keyPrefix }), createPortalRateLimiter({ perMinute: 4, redisUrl, keyPrefix })];
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % 2].spend("user:erin").then(() => "ok", (e) => (e instanceof RateLimitedError ? "refused" : "error"))));
      expect(outcomes.filter((o) => o === "ok")).toHaveLength(4);
      expect(outcomes.filter((o) => o === "refused")).toHaveLength(8);
    } finally {
      for (const instance of instances) await instance.close();
    }
  });
});
