/**
 * The portal's /metrics: a request observed with its route pattern (never the raw path), the text
 * answered to a scraper with METRICS_TOKEN, refused without it, absent without a token set.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { metricsResponse, observeRequests, portalMetrics, routePatterns, serveMetrics } from "./metrics";

const TOKEN = "portal-scraper-token-0123";
const routes = routePatterns([
  { page: "/api/components", regex: "^/api/components(?:/)?$" },
  { page: "/api/components/[name]", regex: "^/api/components/([^/]+?)(?:/)?$" },
]);

describe("portal metrics", () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    observeRequests(routes);
    server = createServer((request, response) => response.writeHead(request.url?.includes("missing") ? 404 : 200).end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("observes each request by route pattern and status, without the path's values", async () => {
    await (await fetch(`${base}/api/components/billing-service-secret-name`)).text();
    await (await fetch(`${base}/api/components/missing-one?token=abc`)).text();
    await (await fetch(`${base}/somewhere/else`)).text();
    // A request is observed when the server has finished sending it, which can be just after the client has read it
    // all. Requests are observed for every server of the process: another file's server that still answers in this
    // worker counts under "other" too, so that count is at least this test's one.
    const count = (text: string, route: string, status: number) =>
      Number(new RegExp(`^portal_http_request_duration_seconds_count\\{method="GET",route="${route.replace(/[[\]/]/g, "\\$&")}",status="${status}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
    const text = await vi.waitFor(async () => {
      const response = await metricsResponse(new Request("http://portal/metrics", { headers: { authorization: `Bearer ${TOKEN}` } }), TOKEN);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const answered = await response.text();
      expect(count(answered, "/api/components/[name]", 200)).toBe(1);
      expect(count(answered, "/api/components/[name]", 404)).toBe(1);
      expect(count(answered, "other", 200)).toBeGreaterThanOrEqual(1);
      return answered;
    });
    expect(text).toContain("process_resident_memory_bytes");
    for (const value of ["billing-service-secret-name", "missing-one", "abc", "/somewhere", TOKEN]) expect(text).not.toContain(value);
  });

  it("refuses a scraper without the token, and has no /metrics without a token set", async () => {
    for (const authorization of ["", "Bearer wrong-token-0123456789", TOKEN]) {
      const refused = await metricsResponse(new Request("http://portal/metrics", { headers: authorization ? { authorization } : {} }), TOKEN);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ message: "unauthenticated" });
    }
    const absent = await metricsResponse(new Request("http://portal/metrics"), undefined);
    expect(absent.status).toBe(404);
    expect(await absent.json()).toMatchObject({ message: "not-found" });
  });

  it("serves the same registry on a port of its own", async () => {
    const metrics = await serveMetrics(0, "127.0.0.1");
    try {
      const response = await fetch(`http://127.0.0.1:${metrics.port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("# TYPE portal_http_request_duration_seconds histogram");
      expect((await fetch(`http://127.0.0.1:${metrics.port}/`)).status).toBe(404);
    } finally {
      await metrics.close();
    }
    expect(portalMetrics().registry.getSingleMetric("portal_http_request_duration_seconds")).toBeDefined();
  });
});
