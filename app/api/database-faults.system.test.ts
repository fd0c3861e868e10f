/**
 * The portal API while its PostgreSQL is down (stopped) or frozen (every process stopped by SIGSTOP):
 * 503 `{message: "database-unavailable", detail}` with Retry-After, within the database timeout when
 * frozen, for personal API tokens and sessions alike; back to normal without a restart. The real
 * route handlers, guard, database, catalog and GitOps wiring run on a throwaway PostgreSQL and a
 * temporary DATA_DIR: the portal's services are built from that environment and installed for the
 * test (nothing is mocked).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { canRunThrowawayPostgres, startThrowawayPostgres, type ThrowawayServer } from "@/test-support/throwaway";
import type { RouteHandler } from "@/lib/portal/http";
import { createPortalServices, portalSettingsFromEnv, setPortalServicesForTests, type PortalServices } from "@/lib/portal/services";

const timeoutMs = 1_000;
// The client waits 1 s longer than the server's statement_timeout; the rest is slack for a busy machine.
const boundMs = timeoutMs + 1_000 + 3_000;
const devToken = "portal-dev-token-0123456789abcdef";
const secret = "nextauth-secret-0123456789abcdef";

type Call = { name: string; handler: RouteHandler; path: string; method?: string; params?: Record<string, string>; auth: "token" | "session" };

describe.skipIf(!canRunThrowawayPostgres())("portal API when its PostgreSQL is down or frozen", () => {
  let server: ThrowawayServer;
  let dataDir: string;
  let calls: Call[];
  let sessionCookie: string;
  let services: PortalServices | undefined;
  let restoreServices: (() => void) | undefined;

  beforeAll(async () => {
    server = await startThrowawayPostgres();
    dataDir = await mkdtemp(path.join(tmpdir(), "portal-db-faults-"));
    vi.stubEnv("PORTAL_DATABASE_URL", server.url);
    vi.stubEnv("DATA_DIR", dataDir);
    vi.stubEnv("DATABASE_TIMEOUT_MS", String(timeoutMs));
    vi.stubEnv("PORTAL_DEV_TOKEN", devToken);
    // Every token is checked against the database here: a token verified in the last few seconds is
    // otherwise answered from memory while the database is away (lib/portal/tokens.ts).
    vi.stubEnv("PORTAL_TOKEN_CACHE_TTL_MS", "0");
    vi.stubEnv("NEXTAUTH_SECRET", secret);
    vi.stubEnv("NEXTAUTH_URL", "");
    vi.stubEnv("PORTAL_DEV_LOGIN", "");
    vi.stubEnv("CONFIG_REPO_URL", "");
    vi.stubEnv("SCM_PROVIDER", "local");
    services = createPortalServices(portalSettingsFromEnv());
    restoreServices = setPortalServicesForTests(services);
    sessionCookie = `next-auth.session-token=${await encode({ token: { username: "alice", name: "Alice", provider: "gitlab", groups: [] }, secret })}`;
    const route = async (file: string) => (await import(/* @vite-ignore */ `@/app/api/${file}`)) as Record<string, RouteHandler>;
    const index = await route("route");
    const components = await route("components/route");
    const favorites = await route("components/favorites/route");
    const favorite = await route("components/[name]/favorite/route");
    const orders = await route("app-order-requests/route");
    const pending = await route("app-order-requests/pending/count/route");
    const audit = await route("audit/route");
    const tokens = await route("tokens/route");
    const reviews = await route("merge-requests/route");
    calls = [
      { name: "GET /api (token)", handler: index.GET, path: "/api", auth: "token" },
      { name: "GET /api/components (token)", handler: components.GET, path: "/api/components", auth: "token" },
      { name: "GET /api/components (session)", handler: components.GET, path: "/api/components", auth: "session" },
      { name: "GET /api/components/favorites", handler: favorites.GET, path: "/api/components/favorites", auth: "session" },
      { name: "POST /api/components/:name/favorite", handler: favorite.POST, path: "/api/components/checkout-api/favorite", method: "POST", params: { name: "checkout-api" }, auth: "session" },
      { name: "GET /api/app-order-requests", handler: orders.GET, path: "/api/app-order-requests", auth: "session" },
      { name: "GET /api/app-order-requests/pending/count", handler: pending.GET, path: "/api/app-order-requests/pending/count", auth: "session" },
      { name: "GET /api/audit (token)", handler: audit.GET, path: "/api/audit", auth: "token" },
      { name: "GET /api/tokens (token)", handler: tokens.GET, path: "/api/tokens", auth: "token" },
      { name: "GET /api/merge-requests?mine-to-review=true (session)", handler: reviews.GET, path: "/api/merge-requests?mine-to-review=true", auth: "session" },
    ];
    // Everything answers while the database is up (this also opens the database, catalog and GitOps).
    for (const call of calls) expect((await send(call)).status, call.name).toBe(200);
  }, 120_000);

  afterAll(async () => {
    if (server) server.thaw();
    await Promise.race([services?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    restoreServices?.();
    vi.unstubAllEnvs();
    await server?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  function send(call: Call): Promise<Response> {
    const headers: Record<string, string> = call.auth === "token" ? { authorization: `Bearer ${devToken}` } : { cookie: sessionCookie, "sec-fetch-site": "same-origin" };
    const request = new Request(`http://portal.test${call.path}`, { method: call.method ?? "GET", headers });
    return call.handler(request, { params: Promise.resolve(call.params ?? {}) });
  }

  async function expectUnavailable(call: Call): Promise<void> {
    const started = Date.now();
    const response = await send(call);
    const elapsed = Date.now() - started;
    expect(response.status, call.name).toBe(503);
    expect(response.headers.get("content-type"), call.name).toMatch(/^application\/json/);
    expect(response.headers.get("retry-after"), call.name).toMatch(/^\d+$/);
    expect(await response.json(), call.name).toEqual({ message: "database-unavailable", detail: expect.stringContaining("database") });
    expect(elapsed, call.name).toBeLessThan(boundMs);
  }

  async function expectRecovered(): Promise<void> {
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt++) {
      status = (await send(calls[1]!)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    for (const call of calls) expect((await send(call)).status, call.name).toBe(200);
  }

  it("stopped: every route that needs the database answers 503 JSON; started again: 200 without a restart", async () => {
    await server.stop();
    try {
      // A session needs no database for the root index; everything else here does.
      await Promise.all(calls.filter((c) => !(c.name.startsWith("GET /api ") && c.auth === "session")).map(expectUnavailable));
    } finally {
      await server.start();
    }
    await expectRecovered();
  }, 60_000);

  it("frozen: every route that needs the database answers 503 within the bound; thawed: 200 without a restart", async () => {
    server.freeze();
    try {
      await Promise.all(calls.map(expectUnavailable));
    } finally {
      server.thaw();
    }
    await expectRecovered();
  }, 60_000);
});
