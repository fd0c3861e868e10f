// The portal's webhook routes on a real portal (test-support/portal/test-portal.ts) in front of the real offers
// service (started as a process with its demo game, in production mode so private addresses are
// refused, as the portal reaches it: over HTTP through its admin API): the liveops role
// on every route, each change audited without its secret, every change on the endpoint's ETag (the
// service's, untouched: 428 without If-Match, 412 with the current ETag when stale, one winner of two
// editors), the offers service's refusals passed through with their codes, bad input answered 400, and
// the service away answered 503.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "@/lib/portal/audit-store";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { builtOffersServiceArgs } from "@/test-support/built";
import { freePort } from "@/test-support/throwaway";
const overview = await import("./route");
const endpoints = await import("./endpoints/route");
const endpoint = await import("./endpoints/[endpointId]/route");
const rotate = await import("./endpoints/[endpointId]/rotate-secret/route");
const test = await import("./endpoints/[endpointId]/test/route");
const deliveries = await import("./deliveries/route");
const replayOne = await import("./deliveries/[deliveryId]/replay/route");
const replayRange = await import("./replay/route");
const { GET: audit } = await import("@/app/api/audit/route");

const ADMIN_TOKEN = "routes-test-offers-admin-token-0123";
const GAME = "demo-game";

let closeOffers: () => Promise<void>;
let portal: PortalTest;
let lina: Record<string, string>, sam: Record<string, string>, admin: Record<string, string>;
let offersUrl = "";

const req = (url: string, init: RequestInit & { json?: unknown } = {}) => {
  const { json, ...rest } = init;
  return new Request(`http://portal.test${url}`, {
    ...rest,
    headers: { ...(json !== undefined ? { "Content-Type": "application/json" } : {}), ...(rest.headers as Record<string, string>) },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
};
const at = <T extends Record<string, string>>(params: T) => ({ params: Promise.resolve(params) });
const base = `/api/offers/games/${GAME}/webhooks`;
/** An endpoint's ETag as the portal answers it. */
async function etagOf(endpointId: string): Promise<string> {
  const res = await endpoint.GET(req(`${base}/endpoints/${endpointId}`, { headers: lina }), at({ gameId: GAME, endpointId }));
  expect(res.status).toBe(200);
  const etag = res.headers.get("etag")!;
  expect((await res.json()).etag).toBe(etag);
  return etag;
}

/** The offers service as deployed: its own process, embedded database, demo game, production rules. */
async function startOffers(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "portal-webhooks-offers-"));
  const port = await freePort();
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OFFERS_") && k !== "REDIS_URL"));
  const child: ChildProcess = spawn(process.execPath, builtOffersServiceArgs(), {
    cwd: process.cwd(),
    env: { ...env, NODE_ENV: "production", LOG_LEVEL: "warn", DATA_DIR: dataDir, OFFERS_HOST: "127.0.0.1", OFFERS_PORT: String(port), OFFERS_ADMIN_TOKEN: ADMIN_TOKEN, OFFERS_DEMO_DATA: "on" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr!.on("data", (d) => (log += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`offers service exited: ${log}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error(`offers service not up: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  let stopped = false;
  return {
    url,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const gone = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
      child.kill("SIGTERM");
      await gone;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

beforeAll(async () => {
  const offers = await startOffers();
  offersUrl = offers.url;
  closeOffers = offers.stop;
  portal = await startPortalTest({ settings: (s) => ({ ...s, offersAdmin: () => ({ baseUrl: offersUrl, token: ADMIN_TOKEN }) }) });
  lina = await portal.signIn({ id: "lina", roles: ["liveops"] });
  sam = await portal.signIn({ id: "sam", roles: ["support"] });
  admin = await portal.signIn({ id: "admin", roles: ["admin"] });
}, 120_000);
afterAll(async () => {
  await portal?.close();
  await closeOffers?.();
});

async function auditEntries(): Promise<AuditEntry[]> {
  const res = await audit(req("/api/audit?action=webhook&limit=200", { headers: admin }));
  expect(res.status).toBe(200);
  return (await res.json()).entries;
}

describe("webhook routes of the portal", () => {
  let endpointId = "";

  it("need the liveops role (admin implied): support is refused, naming the role", async () => {
    const refused = await overview.GET(req(base, { headers: sam }), at({ gameId: GAME }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: "forbidden", requiredRole: "liveops" });
    const write = await endpoints.POST(req(`${base}/endpoints`, { method: "POST", headers: sam, json: { url: "https://hooks.example.com/a" } }), at({ gameId: GAME }));
    expect(write.status).toBe(403);
    const ok = await overview.GET(req(base, { headers: lina }), at({ gameId: GAME }));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ endpoints: [], stats: { lagSeconds: 0, oldestUndeliveredAt: null, pending: 0, failed: 0 } });
    expect((await overview.GET(req(base, { headers: admin }), at({ gameId: GAME }))).status).toBe(200);
  });

  it("adds an endpoint: the secret is answered once and kept out of the audit log", async () => {
    const res = await endpoints.POST(req(`${base}/endpoints`, { method: "POST", headers: lina, json: { url: "https://hooks.example.com/rewards", description: "game server" } }), at({ gameId: GAME }));
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ gameId: GAME, url: "https://hooks.example.com/rewards", enabled: true, eventTypes: ["reward.granted"], secret: expect.stringMatching(/^whsec_/) });
    endpointId = created.endpointId;
    const listed = await (await overview.GET(req(base, { headers: lina }), at({ gameId: GAME }))).json();
    expect(listed.endpoints).toEqual([expect.objectContaining({ endpointId })]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const entries = await auditEntries();
    expect(entries[0]).toMatchObject({ action: "webhook.create", actor: "lina", targetType: "webhook", target: `${GAME}/${endpointId}` });
    expect(JSON.stringify(entries)).not.toContain(created.secret);
  });

  it("refuses bad URLs clearly: not http(s) (400 invalid-request), a private address (400 webhook-url-not-allowed)", async () => {
    const ftp = await endpoints.POST(req(`${base}/endpoints`, { method: "POST", headers: lina, json: { url: "ftp://hooks.example.com/x" } }), at({ gameId: GAME }));
    expect(ftp.status).toBe(400);
    expect(await ftp.json()).toMatchObject({ message: "invalid-request", issues: [{ path: ["url"] }] });
    const loopback = await endpoints.POST(req(`${base}/endpoints`, { method: "POST", headers: lina, json: { url: "http://127.0.0.1:9999/x" } }), at({ gameId: GAME }));
    expect(loopback.status).toBe(400);
    expect(await loopback.json()).toEqual({ message: "webhook-url-not-allowed", detail: expect.stringContaining("loopback or private") });
    const unknownGame = await overview.GET(req("/api/offers/games/no-such-game/webhooks", { headers: lina }), at({ gameId: "no-such-game" }));
    expect(unknownGame.status).toBe(404);
    expect(await unknownGame.json()).toMatchObject({ message: "game-not-found" });
  });

  it("answers the offers service's ETag untouched; a change, rotation or delete without If-Match is 428, with a stale one 412 with the current ETag", async () => {
    const etag = await etagOf(endpointId);
    const direct = await fetch(`${offersUrl}/v1/admin/games/${GAME}/webhooks/endpoints/${endpointId}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(direct.headers.get("etag")).toBe(etag);
    const listed = await (await overview.GET(req(base, { headers: lina }), at({ gameId: GAME }))).json();
    expect(listed.endpoints[0].etag).toBe(etag);

    for (const res of [
      await endpoint.PATCH(req(`${base}/endpoints/${endpointId}`, { method: "PATCH", headers: lina, json: { description: "x" } }), at({ gameId: GAME, endpointId })),
      await rotate.POST(req(`${base}/endpoints/${endpointId}/rotate-secret`, { method: "POST", headers: lina }), at({ gameId: GAME, endpointId })),
      await endpoint.DELETE(req(`${base}/endpoints/${endpointId}`, { method: "DELETE", headers: lina }), at({ gameId: GAME, endpointId })),
    ]) {
      expect(res.status).toBe(428);
      expect(await res.json()).toMatchObject({ message: "precondition-required" });
    }
    const changed = await endpoint.PATCH(req(`${base}/endpoints/${endpointId}`, { method: "PATCH", headers: { ...lina, "if-match": etag }, json: { description: "game server (EU)" } }), at({ gameId: GAME, endpointId }));
    expect(changed.status).toBe(200);
    const current = changed.headers.get("etag")!;
    expect((await changed.json()).etag).toBe(current);
    for (const res of [
      await endpoint.PATCH(req(`${base}/endpoints/${endpointId}`, { method: "PATCH", headers: { ...lina, "if-match": etag }, json: { description: "stale" } }), at({ gameId: GAME, endpointId })),
      await rotate.POST(req(`${base}/endpoints/${endpointId}/rotate-secret`, { method: "POST", headers: { ...lina, "if-match": etag } }), at({ gameId: GAME, endpointId })),
      await endpoint.DELETE(req(`${base}/endpoints/${endpointId}`, { method: "DELETE", headers: { ...lina, "if-match": etag } }), at({ gameId: GAME, endpointId })),
    ]) {
      expect(res.status).toBe(412);
      expect(res.headers.get("etag")).toBe(current);
      expect(await res.json()).toEqual({ message: "precondition-failed", detail: expect.stringContaining("reload to see their change"), etag: current });
    }
    expect(await etagOf(endpointId)).toBe(current);
  });

  it("two people change the same endpoint at once: exactly one change is made, the other is told with the winner's ETag", async () => {
    const etag = await etagOf(endpointId);
    const answers = await Promise.all(
      ["Alice's", "Bob's"].map((description) =>
        endpoint.PATCH(req(`${base}/endpoints/${endpointId}`, { method: "PATCH", headers: { ...lina, "if-match": etag }, json: { description } }), at({ gameId: GAME, endpointId })),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
    const won = await answers.find((a) => a.status === 200)!.json();
    expect(await answers.find((a) => a.status === 412)!.json()).toMatchObject({ message: "precondition-failed", etag: won.etag });
    expect(await etagOf(endpointId)).toBe(won.etag);
  });

  it("disables, rotates the secret and sends a test event, each audited; the log shows the queued test", async () => {
    const disabled = await endpoint.PATCH(req(`${base}/endpoints/${endpointId}`, { method: "PATCH", headers: { ...lina, "if-match": await etagOf(endpointId) }, json: { enabled: false } }), at({ gameId: GAME, endpointId }));
    expect(disabled.status).toBe(200);
    expect(await disabled.json()).toMatchObject({ enabled: false });
    const rotated = await rotate.POST(req(`${base}/endpoints/${endpointId}/rotate-secret`, { method: "POST", headers: { ...lina, "if-match": await etagOf(endpointId) } }), at({ gameId: GAME, endpointId }));
    expect(rotated.status).toBe(200);
    const { secret, etag: afterRotation } = await rotated.json();
    expect(secret).toMatch(/^whsec_/);
    expect(rotated.headers.get("etag")).toBe(afterRotation);
    const sent = await test.POST(req(`${base}/endpoints/${endpointId}/test`, { method: "POST", headers: lina }), at({ gameId: GAME, endpointId }));
    expect(sent.status).toBe(202);
    const { messageId, deliveryId } = await sent.json();

    const log = await (await deliveries.GET(req(`${base}/deliveries?status=pending`, { headers: lina }), at({ gameId: GAME }))).json();
    expect(log.deliveries).toEqual([expect.objectContaining({ deliveryId, messageId, eventType: "webhook.test", status: "pending", attempts: 0 })]);
    const replayed = await replayOne.POST(req(`${base}/deliveries/${deliveryId}/replay`, { method: "POST", headers: lina }), at({ gameId: GAME, deliveryId: String(deliveryId) }));
    expect(replayed.status).toBe(202);

    const actions = (await auditEntries()).map((e) => e.action);
    expect(actions.slice(0, 4)).toEqual(["webhook.replay", "webhook.test", "webhook.rotate-secret", "webhook.update"]);
    const update = (await auditEntries()).find((e) => e.action === "webhook.update")!;
    expect(update.summary).toContain("disabled");
    expect(update.before).toMatchObject({ enabled: true });
    expect(update.after).toMatchObject({ enabled: false });
    expect(JSON.stringify(await auditEntries())).not.toContain(secret);
  });

  it("replays the failed deliveries of a time range; bad ranges and unknown ids are refused", async () => {
    const range = { from: "2026-01-01T00:00:00Z", to: "2026-12-31T00:00:00Z" };
    const res = await replayRange.POST(req(`${base}/replay`, { method: "POST", headers: lina, json: range }), at({ gameId: GAME }));
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ replayed: 0 });
    const backwards = await replayRange.POST(req(`${base}/replay`, { method: "POST", headers: lina, json: { from: range.to, to: range.from } }), at({ gameId: GAME }));
    expect(backwards.status).toBe(400);
    expect(await backwards.json()).toMatchObject({ message: "invalid-request", issues: [{ path: ["to"] }] });
    const unknown = await replayOne.POST(req(`${base}/deliveries/999999/replay`, { method: "POST", headers: lina }), at({ gameId: GAME, deliveryId: "999999" }));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ message: "webhook-delivery-not-found" });
    const notANumber = await replayOne.POST(req(`${base}/deliveries/abc/replay`, { method: "POST", headers: lina }), at({ gameId: GAME, deliveryId: "abc" }));
    expect(notANumber.status).toBe(400);
    const missing = await endpoint.PATCH(req(`${base}/endpoints/ep_none`, { method: "PATCH", headers: { ...lina, "if-match": '"gone"' }, json: { enabled: true } }), at({ gameId: GAME, endpointId: "ep_none" }));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: "webhook-endpoint-not-found" });
  });

  it("deletes an endpoint (liveops only), audited with its settings; a second delete is 404", async () => {
    const refused = await endpoint.DELETE(req(`${base}/endpoints/${endpointId}`, { method: "DELETE", headers: sam }), at({ gameId: GAME, endpointId }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ message: "forbidden", requiredRole: "liveops" });
    const etag = await etagOf(endpointId);
    const deleted = await endpoint.DELETE(req(`${base}/endpoints/${endpointId}`, { method: "DELETE", headers: { ...lina, "if-match": etag } }), at({ gameId: GAME, endpointId }));
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ endpointId, deleted: true });
    const listed = await (await overview.GET(req(base, { headers: lina }), at({ gameId: GAME }))).json();
    expect(listed.endpoints.map((e: { endpointId: string }) => e.endpointId)).not.toContain(endpointId);
    const entry = (await auditEntries())[0]!;
    expect(entry).toMatchObject({ action: "webhook.delete", actor: "lina", target: `${GAME}/${endpointId}`, before: { url: "https://hooks.example.com/rewards" } });
    expect(entry.summary).toContain("deleted webhook endpoint https://hooks.example.com/rewards");
    const again = await endpoint.DELETE(req(`${base}/endpoints/${endpointId}`, { method: "DELETE", headers: { ...lina, "if-match": etag } }), at({ gameId: GAME, endpointId }));
    expect(again.status).toBe(404);
    expect(await again.json()).toMatchObject({ message: "webhook-endpoint-not-found" });
  });

  it("answers 503 while the offers service is away", async () => {
    await closeOffers();
    const res = await overview.GET(req(base, { headers: lina }), at({ gameId: GAME }));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ message: "offers-service-unavailable" });
  });
});
