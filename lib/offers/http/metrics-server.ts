/**
 * /metrics on a port of its own (OFFERS_METRICS_PORT): for a scraper inside the cluster, on a port
 * the load balancer does not publish, so no token is needed. Plain node:http: nothing of the API
 * (hooks, CORS, logging of each scrape) applies to it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { registry } from "../metrics";

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function serveMetrics(options: { host: string; port: number }): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method !== "GET" || path !== "/metrics") {
      response.writeHead(404, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify({ message: "not-found" }));
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "content-type": registry.contentType }).end(text),
      () => response.writeHead(500, { "content-type": "application/json; charset=utf-8" }).end(JSON.stringify({ message: "internal-error" })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
