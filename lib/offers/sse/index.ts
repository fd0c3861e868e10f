/**
 * The event stream of the offers service: engine transitions go to the bus, and the hub serves the
 * players' /v1/sse/connect and the admin API's presence and watch stream. buildOffersApp takes it as
 * `eventStream` (service.ts and tests), attaches it to its engine and registers the routes.
 */
import type { EventBus } from "../../events";
import type { OffersEngine } from "../engine";
import { loadSurfacedSince, publishEngineEvents } from "./bridge";
import { SseHub, type HubLogger } from "./hub";

export interface EventStream {
  /** Serves an app's engine: builds the hub over its database and publishes its transitions (once, by buildOffersApp). */
  attach(engine: OffersEngine): SseHub;
  /** The hub, once attached. */
  readonly hub: SseHub;
  /** Closes every stream and stops publishing. */
  close(): Promise<void>;
}

export function createEventStream(options: {
  bus: EventBus;
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
    attach(engine) {
      if (hub) throw new Error("the event stream is attached to an app already");
      hub = new SseHub({
        bus: options.bus,
        loadSurfacedSince: (key, after) => loadSurfacedSince(engine.db, key, after),
        heartbeatMs: options.heartbeatMs,
        staleTimeoutMs: options.staleTimeoutMs,
        sampleMs: options.sampleMs,
        retryMs: options.retryMs,
        logger: options.logger,
        now: options.now,
      });
      stopPublishing = publishEngineEvents(engine, options.bus, options.logger ?? { info: () => {}, warn: () => {} });
      return hub;
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
