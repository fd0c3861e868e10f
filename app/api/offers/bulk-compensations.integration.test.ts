/**
 * The portal's incident compensation routes on a real portal (test-support/portal/test-portal.ts), the
 * offers service's admin API answered by a recording stub: the upload is a multipart form whose list can
 * be far larger than a JSON body (its limit said in words), checked like any portal input; the actor is
 * the signed-in user, never a field; roles are enforced on the server (support asks, support and leads
 * decide); the result CSV streams through.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteHandler } from "@/lib/portal/http";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

const GAME = "demo-game";
const at = new Date().toISOString();
const job = (status: string, extra: Record<string, unknown> = {}) => ({
  jobId: "bc_1",
  gameId: GAME,
  source: "list",
  reason: "outage",
  requestedBy: "sue",
  status,
  preview: { players: 2, totalAmount: 200, kind: "coins", rewardId: "gold", name: "Gold", amount: 100, invalid: 0, invalidSample: [], duplicates: 1, duplicateSample: [{ line: 3, value: "p1" }], unknown: 0, unknownSample: [] },
  progress: { granted: 0, remaining: 2, cancelled: 0, total: 2 },
  decidedBy: null,
  decisionReason: null,
  cancelledBy: null,
  requestedAt: at,
  decidedAt: null,
  expiresAt: at,
  finishedAt: null,
  resultDeletedAt: null,
  ...extra,
});

describe("incident compensation through the portal", () => {
  let portal: PortalTest;
  const sent: Array<{ method: string; path: string; headers: Headers; body: unknown }> = [];
  let routes: Record<string, Record<string, RouteHandler>>;
  const users: Record<string, Record<string, string>> = {};

  const offersStub: typeof fetch = async (input, init) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    sent.push({ method, path: url.pathname, headers: new Headers(init?.headers), body });
    const base = `/v1/admin/games/${GAME}/bulk-compensations`;
    if (method === "POST" && url.pathname === `${base}/preview`) return Response.json({ preview: job("pending").preview });
    if (method === "POST" && url.pathname === base) return Response.json({ job: job("pending") });
    if (method === "GET" && url.pathname === `${base}/bc_1`) return Response.json({ job: job("pending") });
    if (method === "POST" && url.pathname === `${base}/bc_1/approve`) {
      if (body.actor === "sue") return Response.json({ message: "four-eyes-same-person" }, { status: 403 });
      return Response.json({ job: job("running", { decidedBy: body.actor }) });
    }
    if (method === "GET" && url.pathname === `${base}/bc_1/result`) return new Response("playerId,outcome,grantId\np1,granted,bc_1:p1\n", { headers: { "content-type": "text/csv" } });
    return Response.json({ message: "bulk-job-not-found" }, { status: 404 });
  };

  const form = (fields: Record<string, string | Blob | undefined>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) data.append(k, v);
    return data;
  };
  const valid = { kind: "coins", rewardId: "gold", amount: "100", reason: "Login outage", players: new Blob(["playerId\np1\np1\np2\n"], { type: "text/csv" }) };
  const call = (folder: string, method: string, as: string, init: { body?: BodyInit; headers?: Record<string, string>; params?: Record<string, string> } = {}) =>
    routes[folder]![method]!(new Request(`http://portal.test/api/offers/games/${GAME}/${folder}`, { method, headers: { ...users[as], ...init.headers }, body: init.body }), {
      params: Promise.resolve({ gameId: GAME, ...init.params }),
    });

  beforeAll(async () => {
    portal = await startPortalTest({
      settings: (settings) => ({ ...settings, offersAdmin: () => ({ baseUrl: "http://offers.test", token: "stub-admin-token-0123456789", fetch: offersStub }) }),
    });
    for (const [id, roles] of [["sue", ["support"]], ["sam", ["support"]], ["lee", ["lead"]], ["eddie", ["engineer"]]] as const) users[id] = await portal.signIn({ id, name: id, roles: [...roles] });
    routes = {
      "bulk-compensations": (await import("@/app/api/offers/games/[gameId]/bulk-compensations/route")) as unknown as Record<string, RouteHandler>,
      "bulk-compensations/preview": (await import("@/app/api/offers/games/[gameId]/bulk-compensations/preview/route")) as unknown as Record<string, RouteHandler>,
      "bulk-compensations/bc_1/approve": (await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/approve/route")) as unknown as Record<string, RouteHandler>,
      "bulk-compensations/bc_1/result": (await import("@/app/api/offers/games/[gameId]/bulk-compensations/[jobId]/result/route")) as unknown as Record<string, RouteHandler>,
    };
  }, 120_000);
  afterAll(async () => portal?.close());

  it("sends the CSV and the fields as the signed-in user, with the form's Idempotency-Key", async () => {
    sent.length = 0;
    const res = await call("bulk-compensations", "POST", "sue", { body: form(valid), headers: { "idempotency-key": "form-1" } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).job).toMatchObject({ jobId: "bc_1", status: "pending" });
    const [request] = sent;
    expect(request!.body).toEqual({ kind: "coins", rewardId: "gold", amount: 100, reason: "Login outage", actor: "sue", players: { list: "playerId\np1\np1\np2\n" } });
    expect(request!.headers.get("idempotency-key")).toBe("form-1");
  });

  it("previews an audience rule, and refuses a form it cannot take with a clear 4xx, sending nothing", async () => {
    const preview = await call("bulk-compensations/preview", "POST", "sue", { body: form({ ...valid, players: undefined, audience: JSON.stringify({ field: "daysInGame", op: "gte", value: 30 }) }) });
    sent.length = 0;
    const refusals: Array<[string, BodyInit | undefined, Record<string, string>, number, string]> = [
      ["JSON instead of a form", JSON.stringify({ ...valid, players: "p1" }), { "content-type": "application/json" }, 400, "invalid-request"],
      ["a field the form has not", form({ ...valid, actor: "someone-else" }), {}, 400, "invalid-request"],
      ["NUL in the reason", form({ ...valid, reason: "a\u0000b" }), {}, 400, "invalid-request"],
      ["NUL in the list", form({ ...valid, players: new Blob(["p1\n\u0000\n"]) }), {}, 400, "invalid-request"],
      ["a negative amount", form({ ...valid, amount: "-5" }), {}, 400, "invalid-request"],
      ["an absurd amount", form({ ...valid, amount: "1e12" }), {}, 400, "invalid-request"],
      ["neither players nor audience", form({ ...valid, players: undefined }), {}, 400, "invalid-request"],
      ["a list over 32 MB", form({ ...valid, players: new Blob(["p1\n".repeat(11 * 1024 * 1024)]) }), {}, 413, "payload-too-large"],
    ];
    for (const [what, body, headers, status, message] of refusals) {
      const res = await call("bulk-compensations", "POST", "sue", { body, headers });
      expect(res.status, what).toBe(status);
      expect((await res.json()).message, what).toBe(message);
    }
    expect(sent).toEqual([]);
    expect(preview.status, await preview.clone().text()).toBe(200);
    expect((await preview.json()).preview).toMatchObject({ players: 2, totalAmount: 200, duplicates: 1 });
  });

  it("enforces roles on the server: an engineer may not ask; a lead may not ask but approves; the requester cannot approve", async () => {
    expect((await call("bulk-compensations", "POST", "eddie", { body: form(valid) })).status).toBe(403);
    expect((await call("bulk-compensations", "POST", "lee", { body: form(valid) })).status).toBe(403);
    const own = await call("bulk-compensations/bc_1/approve", "POST", "sue", { body: JSON.stringify({}), headers: { "content-type": "application/json" }, params: { jobId: "bc_1" } });
    expect(own.status).toBe(403);
    expect((await own.json()).message).toBe("four-eyes-same-person");
    const approved = await call("bulk-compensations/bc_1/approve", "POST", "lee", { body: JSON.stringify({ reason: "confirmed" }), headers: { "content-type": "application/json" }, params: { jobId: "bc_1" } });
    expect(approved.status).toBe(200);
    expect((await approved.json()).job).toMatchObject({ status: "running", decidedBy: "lee" });
  });

  it("streams the result as a CSV download", async () => {
    const res = await call("bulk-compensations/bc_1/result", "GET", "lee", { params: { jobId: "bc_1" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toContain("bc_1.csv");
    expect(await res.text()).toBe("playerId,outcome,grantId\np1,granted,bc_1:p1\n");
  });
});
