/**
 * The event stream of the offers service: engine transitions go to the bus, and the hub serves the
 * players' /v1/sse/connect and the admin API's presence and watch stream. buildOffersApp takes it as
 * `eventStream` (service.ts and tests), attaches it to its engine and registers the routes.
 */
import type { EventBus } from "../../events";
import type { OffersEngine } from "../engine";
import { insertActivity } from "../engine/activity";
import { ActivityBuffer } from "./activity-buffer";
import { loadSurfacedSince, publishEngineEvents } from "./bridge";
import { SseHub, type HubLogger } from "./hub";

export interface EventStream {
  /** Serves an app's engine: builds the hub over its database and publishes its transitions (once, by buildOffersApp). */
  attach(engine: OffersEngine): SseHub;
  /** The hub, once attached. */
  readonly hub: SseHub;
  /** Writes the streams' opens and closes buffered so far (tests; the buffer writes them within a second anyway). */
  flushActivity(): Promise<void>;
  /** Closes every stream, stops publishing and writes the buffered activity. */
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
  /** How often buffered stream activity is written (default 1 s). */
  activityFlushMs?: number;
}): EventStream {
  let hub: SseHub | undefined;
  let activity: ActivityBuffer | undefined;
  let stopPublishing = () => {};
  return {
    attach(engine) {
      if (hub) throw new Error("the event stream is attached to an app already");
      const buffer = new ActivityBuffer({ write: (records) => insertActivity(engine.db, records), logger: options.logger, flushMs: options.activityFlushMs });
      activity = buffer;
      hub = new SseHub({
        bus: options.bus,
        loadSurfacedSince: (key, after) => loadSurfacedSince(engine.db, key, after),
        heartbeatMs: options.heartbeatMs,
        staleTimeoutMs: options.staleTimeoutMs,
        sampleMs: options.sampleMs,
        retryMs: options.retryMs,
        logger: options.logger,
        now: options.now,
        onStreamActivity: (key, change) => {
          const instance = hub?.instance;
          buffer.add({
            gameId: key.gameId,
            playerId: key.playerId,
            kind: change.state === "opened" ? "stream-opened" : "stream-closed",
            at: change.at,
            detail: change.state === "opened" ? { instance, resumed: change.resumed } : { instance, openMs: change.openMs, reason: change.reason },
          });
        },
      });
      stopPublishing = publishEngineEvents(engine, options.bus, options.logger ?? { info: () => {}, warn: () => {} });
      return hub;
    },
    get hub() {
      if (!hub) throw new Error("the event stream is not attached to an app yet");
      return hub;
    },
    async flushActivity() {
      await activity?.flush();
    },
    async close() {
      stopPublishing();
      await hub?.closeAll("shutdown");
      // After the streams' closes, so they are written too.
      await activity?.stop();
    },
  };
}
