/**
 * The offers service's OpenAPI document without a running service: the app is built with every route
 * plugin (the event stream and admin API included) over a database that is never reached, so CI and
 * `npm run openapi` get exactly what GET /v1/openapi.json serves.
 */
import { randomBytes } from "node:crypto";
import { drizzle } from "drizzle-orm/node-postgres";
import type { OpenAPIV3_1 } from "openapi-types";
import { MemoryEventBus } from "../events";
import { buildOffersApp } from "./app";
import { schema } from "./db";
import { createEventStream } from "./sse";

export async function buildOffersOpenApiDocument(): Promise<OpenAPIV3_1.Document> {
  const adminToken = randomBytes(16).toString("hex");
  const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 30_000, staleTimeoutMs: 120_000 });
  // Routes prepare their statements at registration; nothing is sent, so a mock is enough.
  const db = drizzle.mock({ schema }) as never;
  const app = await buildOffersApp({ database: { db, ping: async () => {} }, secretKey: randomBytes(32), adminToken, eventStream: stream });
  try {
    await app.ready();
    return app.swagger() as OpenAPIV3_1.Document;
  } finally {
    await stream.close();
    await app.close();
  }
}
