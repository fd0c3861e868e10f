/**
 * The portal's Prometheus metrics: Node process metrics and a histogram of every HTTP request by
 * method, route pattern (the build's routes, e.g. /api/components/[name]; never the raw path) and
 * status. Requests are observed through Node's HTTP diagnostics channels, so no route handler has to
 * take part. The registry lives on globalThis: Next.js loads instrumentation.ts and the route
 * handlers as separate module instances (and reloads them in development).
 *
 * GET /metrics (app/metrics/route.ts) answers it to a scraper sending METRICS_TOKEN as a Bearer
 * token; PORTAL_METRICS_PORT serves it on a port of its own without one.
 */
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { PortalError } from "./errors";
import { errorResponse } from "./http/respond";

interface PortalMetrics {
  registry: Registry;
  requestDuration: Histogram<"method" | "route" | "status">;
  observing?: boolean;
}

const globalForMetrics = globalThis as unknown as { __portalMetrics?: PortalMetrics };

export function portalMetrics(): PortalMetrics {
  if (!globalForMetrics.__portalMetrics) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const requestDuration = new Histogram({
      name: "portal_http_request_duration_seconds",
      help: "Time to answer an HTTP request of the portal, by method, route pattern and status (its _count is the request rate).",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    globalForMetrics.__portalMetrics = { registry, requestDuration };
  }
  return globalForMetrics.__portalMetrics;
}

interface ManifestRoute {
  page: string;
  regex: string;
}

/**
 * The route pattern of a path, from the build's routes (.next/routes-manifest.json): the page
 * ("/api/components/[name]"), "/_next" for the framework's files, "other" for anything else.
 */
export function routePatterns(routes: ManifestRoute[]): (pathname: string) => string {
  const compiled = routes.map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return "/_next";
    return compiled.find((r) => r.regex.test(pathname))?.page ?? "other";
  };
}

function manifestRoutes(distDir: string): ManifestRoute[] {
  try {
    const manifest = JSON.parse(readFileSync(path.join(distDir, "routes-manifest.json"), "utf8")) as { staticRoutes?: ManifestRoute[]; dynamicRoutes?: ManifestRoute[] };
    return [...(manifest.staticRoutes ?? []), ...(manifest.dynamicRoutes ?? [])];
  } catch {
    return [];
  }
}

/** Observes every request this process's HTTP servers answer (once per process). */
export function observeRequests(routeOf: (pathname: string) => string = routePatterns(manifestRoutes(path.join(process.cwd(), ".next")))): void {
  const metrics = portalMetrics();
  if (metrics.observing) return;
  metrics.observing = true;
  const started = new WeakMap<IncomingMessage, bigint>();
  subscribe("http.server.request.start", (message) => {
    started.set((message as { request: IncomingMessage }).request, process.hrtime.bigint());
  });
  subscribe("http.server.response.finish", (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const start = started.get(request);
    if (start === undefined) return;
    const pathname = (request.url ?? "/").split("?")[0];
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    metrics.requestDuration.observe({ method: request.method ?? "GET", route: routeOf(pathname), status: response.statusCode }, seconds);
  });
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** GET /metrics: the text to a scraper with the token; not-found without a token set, unauthenticated without the right one. */
export async function metricsResponse(request: Request, token: string | undefined): Promise<Response> {
  if (!token) return errorResponse(new PortalError("not-found", "/metrics is served only when METRICS_TOKEN is set (or on PORTAL_METRICS_PORT)"));
  const sent = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
  if (!sent || !timingSafeEqual(digest(sent), digest(token))) return errorResponse(new PortalError("unauthenticated", "send METRICS_TOKEN as Authorization: Bearer"));
  const { registry } = portalMetrics();
  return new Response(await registry.metrics(), { headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" } });
}

/** /metrics on a port of its own (PORTAL_METRICS_PORT), for a scraper inside the cluster. */
export function serveMetrics(port: number, host = "0.0.0.0"): Promise<{ port: number; close(): Promise<void> }> {
  const { registry } = portalMetrics();
  const server = createServer((request, response) => {
    if (request.method !== "GET" || (request.url ?? "").split("?")[0] !== "/metrics") {
      response.writeHead(404, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify({ message: "not-found", detail: "only GET /metrics here" }));
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => response.writeHead(500).end(),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () =>
      resolve({ port: (server.address() as AddressInfo).port, close: () => new Promise<void>((done) => server.close(() => done())) }),
    );
  });
}
