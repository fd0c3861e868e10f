/**
 * The service's log: a probe polled every few seconds writes nothing at info, an API request writes
 * its lines with its request id, and a line written inside a span carries the trace and span ids.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { trace } from "@opentelemetry/api";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createOffersLogger } from "./logger";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  trace_id?: string;
  span_id?: string;
}

const INFO = 30;

describe("offers log lines", () => {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString("utf8").split("\n")) if (text.trim()) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  let t: OffersTestContext;

  beforeAll(async () => {
    t = await startOffersTestApp("pglite", { logger: createOffersLogger({ LOG_LEVEL: "debug", NODE_ENV: "production" }, sink) });
  });
  afterAll(async () => t?.close());

  it("writes nothing at info for /health and /ready, and logs an API request with its request id", async () => {
    lines.length = 0;
    for (const url of ["/health", "/ready"]) expect((await t.inject({ method: "GET", url })).statusCode).toBe(200);
    expect(lines.filter((l) => l.level >= INFO)).toEqual([]);
    // Still there at debug, for whoever looks for them.
    expect(lines.filter((l) => l.msg === "request completed").length).toBe(2);

    lines.length = 0;
    const response = await t.inject({ method: "POST", url: "/v1/client/player/campaigns", payload: {}, headers: { "x-game-jwt": "not-a-jwt" } });
    expect(response.statusCode).toBe(401);
    const requestId = response.headers["x-request-id"];
    const info = lines.filter((l) => l.level >= INFO);
    expect(info.map((l) => l.msg)).toEqual(["incoming request", "request completed"]);
    for (const line of info) expect(line.reqId).toBe(requestId);
    // No tracing here: no trace fields.
    expect(info[0]).not.toHaveProperty("trace_id");
  });

  it("adds trace_id and span_id to a line written inside a span", async () => {
    const exporter = new InMemorySpanExporter();
    const sdk = new NodeSDK({ spanProcessors: [new SimpleSpanProcessor(exporter)], instrumentations: [], metricReaders: [], logRecordProcessors: [] });
    sdk.start();
    try {
      lines.length = 0;
      const ids = trace.getTracer("test").startActiveSpan("work", (span) => {
        t.app.log.info("inside a span");
        span.end();
        return span.spanContext();
      });
      expect(lines.find((l) => l.msg === "inside a span")).toMatchObject({ trace_id: ids.traceId, span_id: ids.spanId });
    } finally {
      await sdk.shutdown();
    }
  });
});
