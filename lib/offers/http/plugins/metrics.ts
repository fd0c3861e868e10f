/**
 * Request metrics of every route (an onResponse hook labelled with the route pattern, never the raw
 * URL, so ids in paths never become label values) and, when a token is set (METRICS_TOKEN),
 * GET /metrics on the service's port for a scraper that sends it as a Bearer token. Without a token
 * the route does not exist here; OFFERS_METRICS_PORT serves the same text on a port of its own.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { context, createContextKey } from "@opentelemetry/api";
import fastifyPlugin from "fastify-plugin";
import { httpRequestDuration, registry } from "../../metrics";
import { MetricsTokenRejected } from "../services";

export interface MetricsPluginOptions {
  /** Bearer token of GET /metrics; unset = no /metrics route on this port. */
  token?: string;
}

/** Where the OpenTelemetry HTTP instrumentation keeps a request's route (@opentelemetry/core's RPC metadata key). */
const RPC_METADATA = createContextKey("OpenTelemetry SDK Context Key RPC_METADATA");

const digest = (text: string) => createHash("sha256").update(text).digest();

export const metricsPlugin = fastifyPlugin<MetricsPluginOptions>(
  async (app, options) => {
    // With tracing on, the HTTP server span is named after the route pattern (http.route), as the histogram is.
    app.addHook("onRequest", (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
      const rpc = context.active().getValue(RPC_METADATA) as { route?: string } | undefined;
      if (rpc) rpc.route = request.routeOptions.url;
      done();
    });
    app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      httpRequestDuration.observe({ method: request.method, route: request.routeOptions.url ?? "unmatched", status: reply.statusCode }, reply.elapsedTime / 1000);
      done();
    });
    if (!options.token) return;
    const tokenDigest = digest(options.token);
    app.get(
      "/metrics",
      {
        schema: { hide: true },
        onRequest: async (request) => {
          const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1] ?? "";
          if (!token || !timingSafeEqual(digest(token), tokenDigest)) throw new MetricsTokenRejected();
        },
      },
      async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
    );
  },
  { name: "offers-metrics" },
);
