/**
 * The portal API while its PostgreSQL is down (stopped) or frozen (every process stopped by SIGSTOP):
 * 503 `{message: "database-unavailable", detail}` with Retry-After, within the database timeout when
 * frozen, for personal API tokens and sessions alike; back to normal without a restart. The real
 * route handlers, guard, database, catalog and GitOps wiring run on a throwaway PostgreSQL and a
 * temporary DATA_DIR: the portal's services are built from that environment and installed for the
 * test (nothing is mocked). The support routes run in front of the real offers service (the built
 * dist/offers, its own process and database): with a personal API token they need the portal database
 * (the token is looked up there) and answer 503 like the rest; with a session they do not need it (roles
 * come from portal.yaml, the state is the offers service's, and an audit entry that cannot be written
 * after the change is logged) and answer as usual, within the bound.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { canRunThrowawayPostgres, startThrowawayPostgres, type ThrowawayServer } from "@/test-support/throwaway";
import type { RouteHandler } from "@/lib/portal/http";
import { createPortalServices, portalSettingsFromEnv, setPortalServicesForTests, type PortalServices } from "@/lib/portal/services";
import { startOffersServiceForTests, type OffersServiceForTests } from "@/test-support/portal/test-portal";

const timeoutMs = 1_000;
// The client waits 1 s longer than the server's statement_timeout; the rest is slack for a busy machine.
const boundMs = timeoutMs + 1_000 + 3_000;
const devToken = "portal-dev-token-0123456789abcdef";
const secret = "nextauth-secret-0123456789abcdef";

type Session = "alice" | "sam" | "lee";
type Call = {
  name: string;
  handler: RouteHandler;
  path: string;
  method?: string;
  params?: Record<string, string>;
  auth: "token" | Session;
  /** A JSON body, or a multipart form (made anew for each send). */
  json?: unknown;
  form?: () => FormData;
  headers?: Record<string, string>;
};
const GAME = "demo-game";
// Later than any offer's expiry and within the 30 days ahead an extension may reach.
const extendTo = new Date(Date.now() + 20 * 86_400_000).toISOString();
const bulkForm = () => {
  const form = new FormData();
  for (const [k, v] of Object.entries({ kind: "coins", rewardId: "gold", amount: "10", reason: "Database fault drill", players: "playerId\ndemo-player-1\ndemo-player-2\n" })) form.append(k, v);
  return form;
};

describe.skipIf(!canRunThrowawayPostgres())("portal API when its PostgreSQL is down or frozen", () => {
  let server: ThrowawayServer;
  let dataDir: string;
  let calls: Call[];
  /** Support routes with a personal API token: they need the database for the token. */
  let supportByToken: Call[];
  /** Support routes with a session: they need no portal database. */
  let supportBySession: Call[];
  const cookies = {} as Record<Session, string>;
  let offers: OffersServiceForTests | undefined;
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
    offers = await startOffersServiceForTests();
    const offersAdmin = offers.admin;
    services = createPortalServices({ ...portalSettingsFromEnv(), offersAdmin: () => offersAdmin });
    restoreServices = setPortalServicesForTests(services);
    for (const name of ["alice", "sam", "lee"] as const) {
      cookies[name] = `next-auth.session-token=${await encode({ token: { username: name, name, provider: "gitlab", groups: [] }, secret })}`;
    }
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
      { name: "GET /api/components (session)", handler: components.GET, path: "/api/components", auth: "alice" },
      { name: "GET /api/components/favorites", handler: favorites.GET, path: "/api/components/favorites", auth: "alice" },
      { name: "POST /api/components/:name/favorite", handler: favorite.POST, path: "/api/components/checkout-api/favorite", method: "POST", params: { name: "checkout-api" }, auth: "alice" },
      { name: "GET /api/app-order-requests", handler: orders.GET, path: "/api/app-order-requests", auth: "alice" },
      { name: "GET /api/app-order-requests/pending/count", handler: pending.GET, path: "/api/app-order-requests/pending/count", auth: "alice" },
      { name: "GET /api/audit (token)", handler: audit.GET, path: "/api/audit", auth: "token" },
      { name: "GET /api/tokens (token)", handler: tokens.GET, path: "/api/tokens", auth: "token" },
      { name: "GET /api/merge-requests?mine-to-review=true (session)", handler: reviews.GET, path: "/api/merge-requests?mine-to-review=true", auth: "alice" },
    ];
    // Everything answers while the database is up (this also opens the database, catalog and GitOps).
    for (const call of calls) expect((await send(call)).status, call.name).toBe(200);

    const games = "offers/games/[gameId]";
    const player = `${games}/players/[playerId]`;
    const timeline = await route(`${player}/timeline/route`);
    const thresholds = await route(`${games}/support-thresholds/route`);
    const bulkJobs = await route(`${games}/bulk-compensations/route`);
    const bulkJob = await route(`${games}/bulk-compensations/[jobId]/route`);
    const preview = await route(`${games}/bulk-compensations/preview/route`);
    const approve = await route(`${games}/bulk-compensations/[jobId]/approve/route`);
    const cancel = await route(`${games}/bulk-compensations/[jobId]/cancel/route`);
    const act = {
      expire: await route(`${player}/offers/[instanceId]/expire/route`),
      revoke: await route(`${player}/offers/[instanceId]/revoke/route`),
      "make-claimable": await route(`${player}/offers/[instanceId]/make-claimable/route`),
      extend: await route(`${player}/offers/[instanceId]/extend/route`),
    };
    const gamePath = `/api/offers/games/${GAME}`;
    // Jobs asked for by sam (support), per way of signing in: one to approve, one to cancel (each time by the same person).
    const askBulk = async (key: string) => {
      const asked = await send({ name: "ask", handler: bulkJobs.POST, path: `${gamePath}/bulk-compensations`, method: "POST", params: { gameId: GAME }, auth: "sam", form: bulkForm, headers: { "idempotency-key": key } });
      expect(asked.status).toBe(200);
      return ((await asked.json()) as { job: { jobId: string } }).job.jobId;
    };
    const jobs = {
      token: { toApprove: await askBulk("db-faults-approve-token"), toCancel: await askBulk("db-faults-cancel-token") },
      session: { toApprove: await askBulk("db-faults-approve-session"), toCancel: await askBulk("db-faults-cancel-session") },
    };
    // One player with four offers in play, one per support action.
    const playerId = "db-faults-player";
    const { baseUrl, apiHeaders } = offers;
    const offersApi = (path: string, body: unknown) =>
      fetch(`${baseUrl}/v1${path}`, { method: "POST", headers: { ...apiHeaders, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await offersApi("/player/snapshot", { playerId, username: "Fault drill" })).status).toBe(200);
    const instances: Record<keyof typeof act, string> = { expire: "", revoke: "", "make-claimable": "", extend: "" };
    // Offers with a condition stay surfaced (make-claimable needs that); the fourth may wait in the queue (revoke takes it).
    for (const [action, offerId] of [["make-claimable", "spend-500-gold"], ["expire", "flash-sale"], ["extend", "gem-collector"], ["revoke", "welcome-pack"]] as const) {
      const assigned = await offersApi("/player/offers/assign", { playerId, offerId });
      expect(assigned.status, `${action}: assign ${offerId}`).toBe(200);
      instances[action] = ((await assigned.json()) as { instanceId: string }).instanceId;
    }
    const support = (auth: Call["auth"]): Call[] => {
      const tag = auth === "token" ? "token" : "session";
      const ofPlayer = { gameId: GAME, playerId: "demo-player-1" };
      const { toApprove, toCancel } = jobs[tag];
      return [
        { name: `GET timeline (${tag})`, handler: timeline.GET, path: `${gamePath}/players/demo-player-1/timeline?limit=5`, params: ofPlayer, auth },
        { name: `GET support-thresholds (${tag})`, handler: thresholds.GET, path: `${gamePath}/support-thresholds`, params: { gameId: GAME }, auth },
        {
          name: `PUT support-thresholds (${tag})`,
          handler: thresholds.PUT,
          path: `${gamePath}/support-thresholds`,
          method: "PUT",
          params: { gameId: GAME },
          auth: auth === "token" ? auth : "lee",
          json: { rules: [{ kind: "coins", approvalAbove: 1000 }] },
        },
        { name: `GET bulk-compensations (${tag})`, handler: bulkJobs.GET, path: `${gamePath}/bulk-compensations`, params: { gameId: GAME }, auth },
        { name: `GET bulk-compensations/:jobId (${tag})`, handler: bulkJob.GET, path: `${gamePath}/bulk-compensations/${toApprove}`, params: { gameId: GAME, jobId: toApprove }, auth },
        { name: `POST bulk-compensations/preview (${tag})`, handler: preview.POST, path: `${gamePath}/bulk-compensations/preview`, method: "POST", params: { gameId: GAME }, auth, form: bulkForm },
        // The same Idempotency-Key each time: one job, the first answer repeated.
        {
          name: `POST bulk-compensations (${tag})`,
          handler: bulkJobs.POST,
          path: `${gamePath}/bulk-compensations`,
          method: "POST",
          params: { gameId: GAME },
          auth,
          form: bulkForm,
          headers: { "idempotency-key": `db-faults-ask-${tag}-0001` },
        },
        // By lee (or admin), never the requester sam; the same person approving again is answered the approval.
        {
          name: `POST bulk-compensations/:jobId/approve (${tag})`,
          handler: approve.POST,
          path: `${gamePath}/bulk-compensations/${toApprove}/approve`,
          method: "POST",
          params: { gameId: GAME, jobId: toApprove },
          auth: auth === "token" ? auth : "lee",
          json: {},
        },
        {
          name: `POST bulk-compensations/:jobId/cancel (${tag})`,
          handler: cancel.POST,
          path: `${gamePath}/bulk-compensations/${toCancel}/cancel`,
          method: "POST",
          params: { gameId: GAME, jobId: toCancel },
          auth,
          json: { reason: "Database fault drill" },
        },
        ...(Object.keys(act) as Array<keyof typeof act>).map(
          (action): Call => ({
            name: `POST offers/:instanceId/${action} (${tag})`,
            handler: act[action].POST,
            path: `${gamePath}/players/${playerId}/offers/${instances[action]}/${action}`,
            method: "POST",
            params: { gameId: GAME, playerId, instanceId: instances[action] },
            auth,
            json: { reason: "Database fault drill", ...(action === "extend" ? { expiresAt: extendTo } : {}) },
          }),
        ),
      ];
    };
    supportBySession = support("sam");
    supportByToken = support("token");
    for (const call of [...supportBySession, ...supportByToken]) {
      const response = await send(call);
      expect(response.status, `${call.name}: ${await response.clone().text()}`).toBe(200);
    }
  }, 120_000);

  afterAll(async () => {
    if (server) server.thaw();
    await Promise.race([services?.close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    restoreServices?.();
    await offers?.close();
    vi.unstubAllEnvs();
    await server?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  function send(call: Call): Promise<Response> {
    const headers: Record<string, string> = {
      ...(call.auth === "token" ? { authorization: `Bearer ${devToken}` } : { cookie: cookies[call.auth], "sec-fetch-site": "same-origin" }),
      ...(call.json !== undefined ? { "content-type": "application/json" } : {}),
      ...call.headers,
    };
    const body = call.json !== undefined ? JSON.stringify(call.json) : call.form?.();
    const request = new Request(`http://portal.test${call.path}`, { method: call.method ?? "GET", headers, body });
    return call.handler(request, { params: Promise.resolve(call.params ?? {}) });
  }

  /** A support route on a session: it answers as usual, within the bound, the portal database away or not. */
  async function expectAnswered(call: Call): Promise<void> {
    const started = Date.now();
    const response = await send(call);
    const elapsed = Date.now() - started;
    expect(response.status, `${call.name}: ${await response.clone().text()}`).toBe(200);
    expect(elapsed, call.name).toBeLessThan(boundMs);
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
    for (const call of [...calls, ...supportByToken, ...supportBySession]) expect((await send(call)).status, call.name).toBe(200);
  }

  it("stopped: every route that needs the database answers 503 JSON, support routes on a session answer without it; started again: 200 without a restart", async () => {
    await server.stop();
    try {
      // A session needs no database for the root index; everything else here does.
      await Promise.all([
        ...calls.filter((c) => !(c.name.startsWith("GET /api ") && c.auth !== "token")).map(expectUnavailable),
        ...supportByToken.map(expectUnavailable),
        ...supportBySession.map(expectAnswered),
      ]);
    } finally {
      await server.start();
    }
    await expectRecovered();
  }, 60_000);

  it("frozen: every route that needs the database answers 503 within the bound, support routes on a session answer within it; thawed: 200 without a restart", async () => {
    server.freeze();
    try {
      await Promise.all([...calls.map(expectUnavailable), ...supportByToken.map(expectUnavailable), ...supportBySession.map(expectAnswered)]);
    } finally {
      server.thaw();
    }
    await expectRecovered();
  }, 60_000);
});
