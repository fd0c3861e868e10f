/**
 * Wires the event stream into the offers service: engine transitions go to the bus, the hub serves
 * the players' /v1/sse/connect and the admin API's presence and watch stream, so both route plugins
 * are registered here, with the hub. Pass `extend` to buildOffersApp (main.ts and tests).
 */
import type { FastifyInstance } from "fastify";
import type { EventBus } from "../../events";
import { adminRoutes } from "../http/routes/admin";
import { adminWebhookRoutes } from "../http/routes/admin-webhooks";
import type { OffersServices } from "../http/services";
import { loadSurfacedSince, publishEngineEvents } from "./bridge";
import { closeStreamConnections } from "./transport/http-stream";
import { SseHub, type HubLogger } from "./hub";
import { eventStreamRoutes } from "./routes";

export interface EventStream {
  /** Pass as OffersAppDeps.extend. */
  extend(app: FastifyInstance, services: OffersServices): Promise<void>;
  /** The hub, once the app is built. */
  readonly hub: SseHub;
  /** Closes every stream and stops publishing. */
  close(): Promise<void>;
}

export function createEventStream(options: {
  bus: EventBus;
  adminToken: string;
  heartbeatMs: number;
  staleTimeoutMs: number;
  /** How often the kernel's send queues are sampled for clients that read nothing (default: a quarter of the stale timeout, at most 15 s). */
  sampleMs?: number;
  /** `retry:` sent to clients at connect (their reconnection delay); unset = the client's default. */
  retryMs?: number;
  logger?: HubLogger;
  /** Clock of JWT expiry (tests with a manual clock pass theirs). */
  now?: () => number;
}): EventStream {
  let hub: SseHub | undefined;
  let stopPublishing = () => {};
  return {
    async extend(app, services) {
      const engine = services.engine;
      const attached = new SseHub({
        bus: options.bus,
        loadSurfacedSince: (key, after) => loadSurfacedSince(engine.db, key, after),
        heartbeatMs: options.heartbeatMs,
        staleTimeoutMs: options.staleTimeoutMs,
        sampleMs: options.sampleMs,
        retryMs: options.retryMs,
        logger: options.logger,
        now: options.now,
      });
      hub = attached;
      stopPublishing = publishEngineEvents(engine, options.bus, options.logger ?? { info: () => {}, warn: () => {} });
      await app.register(eventStreamRoutes, { hub: attached, verifyJwt: (request) => services.authenticateJwt(request) });
      await app.register(adminRoutes, { engine, hub: attached, adminToken: options.adminToken });
      await app.register(adminWebhookRoutes, { services, adminToken: options.adminToken });
      // Streams never end by themselves: close them when the server closes, or close() would wait.
      app.addHook("preClose", async () => {
        closeStreamConnections(app.server);
        await hub?.closeAll("shutdown");
      });
    },
    get hub() {
      if (!hub) throw new Error("the event stream is not attached to an app yet");
      return hub;
    },
    async close() {
      stopPublishing();
      await hub?.closeAll("shutdown");
    },
  };
}
