/**
 * Traces end to end: the offers service as it is built and started (esbuild bundle, `node --import
 * tracing.mjs main.mjs`) exports to an OTLP/HTTP receiver on loopback. A request yields an HTTP
 * server span and (on PostgreSQL) database spans in one trace; a request carrying a traceparent
 * continues that trace; a call through lib/offers-client inside a span of this process (the portal's
 * side, with the same startTracing the portal uses) and the service's spans share one trace id; the
 * service's log lines of a traced request carry its trace id. With the endpoint unset nothing starts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { trace } from "@opentelemetry/api";
import { createScratchPostgres, seedPgliteDataDir } from "@/test-support/db/test-databases";
import { offersMigrations } from "./db";
import { createServerClient } from "../offers-client";
import { builtOffersServiceArgs } from "@/test-support/built";
import { freePort } from "@/test-support/throwaway";
import { startTracing, type Tracing } from "../tracing";
import { exited, waitHealthy } from "@/test-support/offers/test-app";

interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
}

const SERVER_KIND = 2;
const CLIENT_KIND = 3;

/** An OTLP/HTTP receiver (JSON encoding) on loopback that keeps every span it is sent. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; server: Server }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      if (request.url === "/v1/traces" && request.headers["content-type"]?.startsWith("application/json")) {
        const payload = JSON.parse(body) as {
          resourceSpans: { resource: { attributes: { key: string; value: { stringValue?: string } }[] }; scopeSpans: { scope: { name: string }; spans: Omit<ReceivedSpan, "service" | "scope">[] }[] }[];
        };
        for (const rs of payload.resourceSpans) {
          const service = rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue ?? "";
          for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ service, scope: ss.scope.name, name: s.name, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId, kind: s.kind });
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("traces", () => {
  it("start nothing without OTEL_EXPORTER_OTLP_ENDPOINT", async () => {
    expect(await startTracing("offers-service", {})).toBeUndefined();
    // The API's no-op tracer: its spans are not recorded and carry no trace id.
    const span = trace.getTracer("check").startSpan("nothing");
    expect(span.isRecording()).toBe(false);
    expect(trace.isSpanContextValid(span.spanContext())).toBe(false);
    span.end();
  });

  describe("of the built offers service", () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-tracing-"));
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | undefined;
    let child: ChildProcess;
    let stdout = "";
    let stderr = "";
    let base: string;
    let tracing: Tracing | undefined;

    beforeAll(async () => {
      receiver = await startReceiver();
      // Database spans need PostgreSQL (PGlite is not reached through pg).
      if (process.env.TEST_DATABASE_URL) scratch = await createScratchPostgres({ template: offersMigrations });
      else await seedPgliteDataDir(path.join(dataDir, "offers"), offersMigrations);
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("OTEL_") && k !== "OFFERS_DATABASE_URL")),
        NODE_ENV: "production",
        LOG_LEVEL: "info",
        DATA_DIR: dataDir,
        OFFERS_HOST: "127.0.0.1",
        OFFERS_PORT: String(port),
        OFFERS_DEMO_DATA: "on",
        OFFERS_WEBHOOK_WORKER: "off",
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "100",
        ...(scratch ? { OFFERS_DATABASE_URL: scratch.url } : {}),
      };
      child = spawn(process.execPath, builtOffersServiceArgs({ tracing: true }), { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
      child.stdout!.setEncoding("utf8").on("data", (c: string) => (stdout += c));
      child.stderr!.setEncoding("utf8").on("data", (c: string) => (stderr += c));
      await waitHealthy(base, child, () => stderr);
    }, 120_000);

    afterAll(async () => {
      await tracing?.shutdown();
      if (child && child.exitCode === null) {
        child.kill("SIGTERM");
        await exited(child);
      }
      await new Promise<void>((resolve) => receiver?.server.close(() => resolve()));
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const refresh = (headers: Record<string, string> = {}) =>
      fetch(`${base}/v1/player/campaigns/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-client-id": "demo-client", "x-api-key": "demo-api-key", ...headers },
        body: JSON.stringify({ playerId: "trace-player" }),
      });

    it("continue a caller's traceparent: an HTTP server span named after the route, database spans on PostgreSQL, log lines with the trace id", async () => {
      const traceId = "0af7651916cd43dd8448eb211c80319c";
      const response = await refresh({ traceparent: `00-${traceId}-b7ad6b7169203331-01` });
      expect(response.status).toBe(200);
      const requestId = response.headers.get("x-request-id");

      const server = await until("server span", () => receiver.spans.find((s) => s.traceId === traceId && s.kind === SERVER_KIND));
      expect(server).toMatchObject({ service: "offers-service", name: "POST /v1/player/campaigns/refresh", parentSpanId: "b7ad6b7169203331" });
      if (scratch) {
        const queries = await until("database spans", () => {
          const found = receiver.spans.filter((s) => s.traceId === traceId && s.scope.includes("instrumentation-pg") && s.name.startsWith("pg.query"));
          return found.length ? found : undefined;
        });
        expect(queries.length).toBeGreaterThan(0);
      }

      const lines = stdout.split("\n").filter((l) => l.includes(`"reqId":"${requestId}"`)).map((l) => JSON.parse(l) as { msg: string; trace_id?: string });
      expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["incoming request", "request completed"]));
      for (const line of lines) expect(line.trace_id).toBe(traceId);
    });

    it("make no span of probes", async () => {
      const before = receiver.spans.length;
      expect((await fetch(`${base}/health`)).status).toBe(200);
      await refresh(); // a span that surely arrives after the probe's would have
      await until("the next request's span", () => (receiver.spans.slice(before).some((s) => s.service === "offers-service" && s.kind === SERVER_KIND) ? true : undefined));
      expect(receiver.spans.slice(before).filter((s) => s.name.includes("/health") || s.name === "GET")).toEqual([]);
    });

    it("join the portal's span and the offers service's spans in one trace through lib/offers-client", async () => {
      // From here this process plays the portal: the same startTracing, exporting to the same receiver
      // (its fetch instrumentation then adds a traceparent to every request of this process).
      Object.assign(process.env, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "100" });
      tracing = await startTracing("portal");
      const client = createServerClient({ baseUrl: `${base}/v1`, clientId: "demo-client", apiKey: "demo-api-key" });
      const portalTraceId = await trace.getTracer("portal-test").startActiveSpan("portal: load player", async (span) => {
        await client.refreshCampaigns({ playerId: "trace-player" });
        span.end();
        return span.spanContext().traceId;
      });
      const server = await until("offers server span", () => receiver.spans.find((s) => s.traceId === portalTraceId && s.service === "offers-service" && s.kind === SERVER_KIND));
      expect(server.name).toBe("POST /v1/player/campaigns/refresh");
      // The portal's own fetch span (undici) is the server span's parent.
      const fetchSpan = await until("portal fetch span", () => receiver.spans.find((s) => s.traceId === portalTraceId && s.service === "portal" && s.kind === CLIENT_KIND));
      expect(server.parentSpanId).toBe(fetchSpan.spanId);
      expect(receiver.spans.some((s) => s.traceId === portalTraceId && s.service === "portal" && s.name === "portal: load player")).toBe(true);
    });
  });
});
