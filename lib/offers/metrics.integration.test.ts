/**
 * GET /metrics of the offers service after real traffic: the families a dashboard reads are there
 * with the values the traffic implies, a scraper without the token is refused with the service's
 * error shape, no label value carries a player id or a token, and OFFERS_METRICS_PORT serves the
 * same text on a port of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AddressInfo } from "node:net";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { MemoryEventBus } from "../events";
import { serveMetrics } from "./http/metrics-server";
import { addMetricsSource } from "./metrics";
import { createEventStream } from "./sse";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

const METRICS_TOKEN = "scraper-token-0123456789";
const ADMIN = "test-admin-token-0123456789";
const PLAYER = "metrics-player-7f3a9c";
const coins = { kind: "coins" as const, rewardId: "coins", name: "Coins", amount: 10 };

/** The value of one sample, e.g. sample(text, 'offers_claims_total{kind="offer",endpoint="client"}'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(testDatabaseTargets())("offers /metrics on %s", (target) => {
  let t: OffersTestContext;
  let base: string;
  let removeSource = () => {};
  // JWT expiry is judged on the test's manual clock.
  const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000, now: () => t.clock.now().getTime() });
  const scrape = async (headers: Record<string, string> = { authorization: `Bearer ${METRICS_TOKEN}` }) => t.inject({ method: "GET", url: "/metrics", headers });

  beforeAll(async () => {
    t = await startOffersTestApp(target, { metricsToken: METRICS_TOKEN, adminToken: ADMIN, eventStream: stream });
    removeSource = addMetricsSource({ pool: t.database.poolStats, streams: () => ({ player: stream.hub.connectionCount, watcher: stream.hub.watcherCount }) });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    removeSource();
    await t?.close();
  });

  it("counts requests by route pattern, claims, conflicts, JWT rejections and open streams, without player ids or tokens", async () => {
    const before = (await scrape()).body;
    const h = t.apiHeaders();
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/free", headers: h, payload: { name: "Free", rewards: [coins], durationSeconds: 3600, realTime: true } })).statusCode).toBe(200);
    const jwt = await t.jwt(PLAYER);

    // An open stream of the player: the offer assigned next is pushed to it.
    const controller = new AbortController();
    const streamResponse = await fetch(`${base}/v1/sse/connect`, { headers: { accept: "text/event-stream", "x-game-jwt": jwt }, signal: controller.signal });
    expect(streamResponse.status).toBe(200);
    const reader = streamResponse.body!.pipeThrough(new TextDecoderStream()).getReader();
    const assigned = await t.post("/v1/player/offers/assign", { playerId: PLAYER, offerId: "free" }, h);
    expect(assigned.status).toBe(200);
    let received = "";
    while (!received.includes("event: offer_surfaced")) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`the stream ended: ${received}`);
      received += chunk.value;
    }

    // Viewed (no conditions: claimable), claimed once (200), claimed again (409), a bad JWT (401).
    expect((await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": jwt })).status).toBe(200);
    const instanceId = assigned.body.instanceId as string;
    expect((await t.post("/v1/client/reward/claim", { kind: "offer", instanceId }, { "x-game-jwt": jwt })).status).toBe(200);
    expect((await t.post("/v1/client/reward/claim", { kind: "offer", instanceId }, { "x-game-jwt": jwt })).status).toBe(409);
    expect((await t.post("/v1/client/player/campaigns", {}, { "x-game-jwt": "not-a-jwt" })).status).toBe(401);

    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    const delta = (series: string) => (sample(text, series) ?? 0) - (sample(before, series) ?? 0);

    expect(delta('offers_claims_total{kind="offer",endpoint="client"}')).toBe(1);
    expect(delta('offers_claim_conflicts_total{kind="offer",endpoint="client"}')).toBe(1);
    expect(delta('offers_jwt_rejections_total{code="jwt-invalid"}')).toBe(1);
    expect(sample(text, 'offers_sse_streams_open{stream="player"}')).toBe(1);
    expect(delta('offers_sse_events_pushed_total{stream="player",event="offer_surfaced"}')).toBe(1);
    // The route pattern, never the raw URL (the definition's id is in the path).
    expect(delta('offers_http_request_duration_seconds_count{method="POST",route="/v1/client/reward/claim",status="409"}')).toBe(1);
    expect(delta('offers_http_request_duration_seconds_count{method="PUT",route="/v1/offers/definitions/:offerId",status="200"}')).toBe(1);
    expect(text).toContain("process_cpu_seconds_total");
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    if (t.database.poolStats) {
      expect(sample(text, "offers_db_pool_max_connections")).toBeGreaterThan(0);
      expect(sample(text, "offers_db_pool_waiting")).toBe(0);
    }

    // No label value names the player, a JWT, the API key or the metrics token.
    for (const secret of [PLAYER, jwt, t.game.apiKey, METRICS_TOKEN, instanceId, "/v1/offers/definitions/free"]) expect(text).not.toContain(secret);

    controller.abort();
    await reader.cancel().catch(() => {});
  });

  it("refuses a scraper without the token with 401 invalid-metrics-token", async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: "Bearer wrong-token-0123456789" }, { authorization: METRICS_TOKEN }];
    for (const headers of attempts) {
      const response = await scrape(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: "invalid-metrics-token" });
    }
  });

  it("has no /metrics route without a token, and serves it on a port of its own", async () => {
    const plain = await startOffersTestApp(target);
    try {
      const response = await plain.inject({ method: "GET", url: "/metrics" });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: "not-found" });
    } finally {
      await plain.close();
    }
    const server = await serveMetrics({ host: "127.0.0.1", port: 0 });
    try {
      const response = await fetch(server.url);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("# TYPE offers_claims_total counter");
      expect((await fetch(server.url.replace("/metrics", "/other"))).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it("leaves /metrics out of the OpenAPI document", async () => {
    const doc = (await t.inject({ method: "GET", url: "/v1/openapi.json" })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).filter((p) => p.includes("metrics"))).toEqual([]);
  });
});
