/**
 * Longer than 400 lines on purpose: ordering, replay and displacement all act on one connection's
 * state, and kept together their invariants can be read in one place.
 *
 * The event-stream hub: one live connection per player (a newer one replaces the older, on any
 * instance), replay after Last-Event-ID, close at JWT expiry, presence, and watchers (support staff)
 * that observe a player's events without taking the player's connection. Plain TypeScript: the HTTP
 * layer hands it a sink, and each stream writes through a channel of the transport (./transport:
 * heartbeats, what the client has not taken, the close of a client that has read nothing for the
 * stale timeout), which knows nothing of players or offers.
 *
 * Ordering: every offer transition is published on the player's bus channel with its per-player
 * sequence number (offers_events.seq). A connection applies messages in seq order; on a gap
 * (a message from another instance overtook one) it reads what it missed from the database, and so
 * does every connection when the bus comes back after an outage (messages published elsewhere
 * meanwhile were lost).
 *
 * Displacement: the older connection gets the named event `replaced` (our addition to the
 * interface's event types) whose id is REPLACED_EVENT_ID. A standard EventSource reconnects sending
 * that id as Last-Event-ID, and the route answers 409, which makes it stop for good.
 */
import { randomUUID } from "node:crypto";
import type { EventBus, Unsubscribe } from "../../events";
import type { Offer } from "../contract";
import { sseEventsPushedTotal } from "../metrics";
import { SseTransport } from "./transport/channel";
import type { StallSampler } from "./transport/stall-sampler";
import type { ChannelListener, SseMessage, SseSink, StallReport, StreamChannel } from "./transport/types";

/** What connect() and watch() write to (the transport's sink). */
export type { SseSink } from "./transport/types";

export interface PlayerKey {
  gameId: string;
  playerId: string;
}

export const playerChannel = (key: PlayerKey) => `offers:player:${key.gameId}:${key.playerId}`;

/** An offer transition as published on the bus (and shown to watchers). */
export interface OfferEventMessage {
  kind: "offer_event";
  seq: number;
  type: string;
  instanceId: string;
  offerId: string;
  fromStatus: string | null;
  toStatus: string;
  cause: string;
  at: string;
  /** Who moved the offer when a person did (support); null when the engine did. Absent from an older instance's messages. */
  actor?: string | null;
  realTime: boolean;
  /** The offer after the transition (client view). */
  offer: Offer;
}

export interface ConnectionMessage {
  kind: "connection";
  state: "opened" | "closed";
  connectionId: string;
  instance: string;
  at: string;
  reason?: string;
}

interface TakeoverMessage {
  kind: "takeover";
  connectionId: string;
  /** When the new connection opened: of two racing connections, the newer one stays. */
  openedAt: number;
}

export type PlayerBusMessage = OfferEventMessage | ConnectionMessage | TakeoverMessage;

export interface SurfacedSince {
  /** Real-time offers surfaced after the given seq, ascending. */
  events: Array<{ seq: number; offer: Offer }>;
  /** The player's latest seq at the time of reading (0 for a player without events). */
  lastSeq: number;
}

export interface HubLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug?(obj: object, msg?: string): void;
}

export interface SseHubOptions {
  bus: EventBus;
  /** Reads surfaced real-time offers after `afterSeq` (null: none, only the current last seq). */
  loadSurfacedSince(key: PlayerKey, afterSeq: number | null): Promise<SurfacedSince>;
  heartbeatMs: number;
  /** A client that has read nothing for this long is closed. */
  staleTimeoutMs: number;
  /** How often the kernel's send queues are sampled (default: a quarter of the stale timeout, at most 15 s). */
  sampleMs?: number;
  /** Reconnection delay advertised to standard EventSource clients (`retry:`); unset = theirs (about 3 s). */
  retryMs?: number;
  now?: () => number;
  logger?: HubLogger;
  /** Name of this instance, in connection events. */
  instance?: string;
  /**
   * Told (synchronously; it must not wait on anything) when a player's stream opened or closed, for the
   * timeline: `resumed` when the client sent Last-Event-ID, `openMs` and `reason` on close.
   */
  onStreamActivity?: (key: PlayerKey, change: { state: "opened"; at: Date; resumed: boolean } | { state: "closed"; at: Date; openMs: number; reason: CloseReason }) => void;
  /** Told when a player's connection on this instance opens or closes (presence). */
  onPresence?: (key: PlayerKey, connected: boolean, connectionId: string) => void;
  /**
   * How long a connection's presence mark on the bus lasts without renewal (default 60 s; renewed
   * every third of it): after a crash, its players show online for at most this long.
   */
  presenceTtlMs?: number;
}

export type CloseReason = "client closed" | "replaced" | "jwt expired" | "stale" | "shutdown" | "error";

/** The id of the `replaced` event. Sent back as Last-Event-ID, it is answered 409 (see routes.ts). */
export const REPLACED_EVENT_ID = "replaced";

const MAX_TIMEOUT = 2 ** 31 - 1;
/** Connections reading what they missed at once after a bus outage (the rest wait their turn). */
const RESYNC_CONCURRENCY = 4;
/** Where each stream's chain of ordered steps starts: one settled promise for all. */
const SETTLED: Promise<void> = Promise.resolve();

/** What players and watchers share: a channel of the transport, a bus subscription, and one close. */
abstract class Stream implements ChannelListener {
  protected closed = false;
  protected unsubscribe: Unsubscribe | undefined;
  protected readonly channel: StreamChannel;

  constructor(
    protected readonly hub: SseHub,
    sink: SseSink,
    readonly key: PlayerKey,
  ) {
    this.channel = hub.transport.open(sink, this);
  }

  /** The transport found that the client has read nothing for the stale timeout. */
  onStall(report: StallReport): void {
    if (report.seenIn === "kernel") {
      const { kernelQueuedBytes, nodeQueuedBytes } = report;
      this.hub.logger.info({ player: this.key, kernelQueuedBytes, nodeQueuedBytes }, "event stream client reads nothing: closing");
    }
    void this.close("stale");
  }

  async close(reason: CloseReason): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cleanupTimers();
    this.forget();
    if (reason === "stale" || reason === "client closed") {
      // Nobody reads what would be written: free the socket and its buffers now.
      this.channel.drop();
    } else {
      this.channel.end(this.farewell(reason));
    }
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = undefined;
    await unsubscribe?.().catch(() => {});
    await this.afterClose(reason);
  }

  /** The last words of a stream closed for this reason, if any. */
  protected farewell(_reason: CloseReason): SseMessage[] | undefined {
    return undefined;
  }

  protected cleanupTimers(): void {}
  protected abstract forget(): void;
  protected async afterClose(_reason: CloseReason): Promise<void> {}
}

/** A player's own connection: offer_surfaced events for real-time offers, with ids. */
export class PlayerConnection extends Stream {
  readonly id = randomUUID();
  readonly openedAt: number;
  private lastSeq = 0;
  private ready = false;
  /** Subscribed and caught up: from now on every surfaced offer reaches the client. */
  live = false;
  /** When the stream started (hub clock), once it has: only a started stream is recorded closed. */
  private startedAtMs: number | undefined;
  /** Messages that arrived while the stream was starting (created only then). */
  private buffered: OfferEventMessage[] | undefined;
  private chain: Promise<void> = SETTLED;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The bus came back while this stream was starting: read again once it has started. */
  private resyncAfterStart = false;

  constructor(hub: SseHub, sink: SseSink, key: PlayerKey, expiresAtMs: number) {
    super(hub, sink, key);
    // Wall time, not the JWT clock: it orders connections across instances.
    this.openedAt = Date.now();
    const untilExpiry = expiresAtMs - hub.now();
    this.expiryTimer = setTimeout(() => void this.close("jwt expired"), Math.max(0, Math.min(untilExpiry, MAX_TIMEOUT)));
  }

  async start(lastEventId: number | null): Promise<void> {
    // A new stream starts at the live edge as of now, before subscribing: whatever surfaces while the
    // subscription is being set up is then replayed from the database instead of being lost.
    const after = lastEventId ?? (await this.hub.options.loadSurfacedSince(this.key, null)).lastSeq;
    this.unsubscribe = await this.hub.options.bus.subscribe(playerChannel(this.key), (raw) => this.onMessage(raw));
    if (this.closed) {
      await this.unsubscribe();
      return;
    }
    // Tell connections of this player on other instances to yield.
    await this.announce();
    // A comment first, so proxies and clients see the stream open at once.
    this.channel.send({ comment: "connected", retryMs: this.hub.options.retryMs });
    const { events, lastSeq } = await this.hub.options.loadSurfacedSince(this.key, after);
    for (const event of events) this.channel.send({ event: "offer_surfaced", data: { offer: event.offer }, id: event.seq });
    this.lastSeq = Math.max(lastSeq, after, events.at(-1)?.seq ?? 0);
    this.ready = true;
    this.live = true;
    const buffered = this.buffered ?? [];
    this.buffered = undefined;
    for (const message of buffered) this.enqueue(message);
    if (this.resyncAfterStart) void this.resync();
    this.startedAtMs = this.hub.now();
    this.hub.options.onStreamActivity?.(this.key, { state: "opened", at: new Date(this.startedAtMs), resumed: lastEventId !== null });
    await this.hub.publish(this.key, {
      kind: "connection",
      state: "opened",
      connectionId: this.id,
      instance: this.hub.instance,
      at: new Date(this.hub.now()).toISOString(),
    });
  }

  private onMessage(raw: string): void {
    if (this.closed) return;
    const message = JSON.parse(raw) as PlayerBusMessage;
    if (message.kind === "takeover") {
      if (message.connectionId === this.id) return;
      const newer =
        message.openedAt > this.openedAt || (message.openedAt === this.openedAt && message.connectionId > this.id);
      if (newer) void this.close("replaced");
      // An older connection of this player announced itself (after a bus outage, when this one's
      // announcement could not reach it): answer, so that it yields.
      else void this.announce();
      return;
    }
    if (message.kind !== "offer_event") return;
    if (!this.ready) (this.buffered ??= []).push(message);
    else this.enqueue(message);
  }

  private enqueue(message: OfferEventMessage): void {
    this.inOrder(() => this.apply(message));
  }

  /** Runs `step` after every step queued before it (messages and reads apply in order). */
  private inOrder(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(step).catch((error: unknown) => {
      this.hub.logger.warn({ err: (error as Error).message, player: this.key }, "event stream catch-up failed");
    });
    return this.chain;
  }

  /**
   * After a bus outage: announce this connection again, so that a connection of the same player
   * opened on another instance meanwhile (the takeover could not reach it) yields to the newer one;
   * then read what was published elsewhere and lost.
   */
  async resync(): Promise<void> {
    if (this.closed) return;
    if (!this.ready) {
      this.resyncAfterStart = true;
      return;
    }
    this.resyncAfterStart = false;
    await this.announce();
    await this.inOrder(() => this.readMissed());
  }

  /** Tells connections of this player on other instances that this one holds the stream (the older yields). */
  private async announce(): Promise<void> {
    await this.hub.publish(this.key, { kind: "takeover", connectionId: this.id, openedAt: this.openedAt }).catch(() => {});
  }

  /**
   * Writes the real-time offers surfaced after the last seq this stream has seen, from the database;
   * `seen` is the seq of a message that made the read (it is in the record).
   */
  private async readMissed(seen = 0): Promise<void> {
    const { events, lastSeq } = await this.hub.options.loadSurfacedSince(this.key, this.lastSeq);
    if (this.closed) return;
    for (const event of events) {
      if (event.seq > this.lastSeq) {
        this.channel.send({ event: "offer_surfaced", data: { offer: event.offer }, id: event.seq });
        sseEventsPushedTotal.inc({ stream: "player", event: "offer_surfaced" });
      }
    }
    this.lastSeq = Math.max(this.lastSeq, lastSeq, seen);
  }

  private async apply(message: OfferEventMessage): Promise<void> {
    if (this.closed || message.seq <= this.lastSeq) return;
    if (message.seq === this.lastSeq + 1) {
      this.lastSeq = message.seq;
      if (message.type === "surfaced" && message.realTime) {
        this.channel.send({ event: "offer_surfaced", data: { offer: message.offer }, id: message.seq });
        sseEventsPushedTotal.inc({ stream: "player", event: "offer_surfaced" });
      }
      return;
    }
    // A gap: some transition's message has not arrived (yet). The database is the record.
    await this.readMissed(message.seq);
  }

  protected farewell(reason: CloseReason): SseMessage[] | undefined {
    if (reason !== "replaced") return undefined;
    // The comment for SDKs of before the named event; the event for every standard client.
    return [{ comment: "replaced" }, { event: "replaced", data: { message: "stream-replaced" }, id: REPLACED_EVENT_ID }];
  }

  protected cleanupTimers(): void {
    if (this.expiryTimer) clearTimeout(this.expiryTimer);
  }

  protected forget(): void {
    this.hub.forgetConnection(this);
  }

  protected async afterClose(reason: CloseReason): Promise<void> {
    this.hub.logger.info({ player: this.key, reason }, "event stream closed");
    if (this.startedAtMs !== undefined) {
      const at = this.hub.now();
      this.hub.options.onStreamActivity?.(this.key, { state: "closed", at: new Date(at), openMs: Math.max(0, at - this.startedAtMs), reason });
    }
    await this.hub
      .publish(this.key, {
        kind: "connection",
        state: "closed",
        connectionId: this.id,
        instance: this.hub.instance,
        at: new Date(this.hub.now()).toISOString(),
        reason,
      })
      .catch(() => {});
  }
}

/** A support watcher: every offer transition and connection change of one player. */
export class PlayerWatcher extends Stream {
  async start(): Promise<void> {
    this.unsubscribe = await this.hub.options.bus.subscribe(playerChannel(this.key), (raw) => {
      const message = JSON.parse(raw) as PlayerBusMessage;
      if (message.kind === "offer_event") {
        this.channel.send({ event: message.type, data: message, id: message.seq });
        sseEventsPushedTotal.inc({ stream: "watcher", event: message.type });
      } else if (message.kind === "connection") {
        this.channel.send({ event: "connection", data: message });
        sseEventsPushedTotal.inc({ stream: "watcher", event: "connection" });
      }
    });
    if (this.closed) await this.unsubscribe();
    this.channel.send({ comment: "watching" });
  }

  /** Writes an event of the watch stream (e.g. the player's presence when it opens). */
  send(type: string, data: unknown): void {
    this.channel.send({ event: type, data });
  }

  protected forget(): void {
    this.hub.forgetWatcher(this);
  }
}

export class SseHub {
  readonly instance: string;
  readonly logger: HubLogger;
  readonly now: () => number;
  private readonly connections = new Map<string, PlayerConnection>();
  private readonly watchers = new Set<PlayerWatcher>();
  /** Held while this instance has connections: the bus says when it is back after an outage. */
  private stopListeningForReconnect: (() => void) | undefined;
  private resyncing: Promise<void> | undefined;
  private resyncAgain = false;
  /** Writes the streams: heartbeats, flush accounting, stall detection (one set of timers per hub). */
  readonly transport: SseTransport;
  private readonly presenceTtlMs: number;
  /** Renews the presence marks of this hub's connections (runs while it has any). */
  private presenceTimer: ReturnType<typeof setInterval> | undefined;

  constructor(readonly options: SseHubOptions) {
    this.instance = options.instance ?? randomUUID().slice(0, 8);
    this.logger = options.logger ?? { info: () => {}, warn: () => {} };
    this.now = options.now ?? Date.now;
    this.transport = new SseTransport({
      heartbeatMs: options.heartbeatMs,
      staleTimeoutMs: options.staleTimeoutMs,
      sampleMs: options.sampleMs,
      logger: this.logger,
    });
    this.presenceTtlMs = options.presenceTtlMs ?? 60_000;
  }

  /** The transport's sampler of kernel send queues (it stops with the last stream). */
  get stallSampler(): StallSampler {
    return this.transport.stallSampler;
  }

  /** Opens a player's connection, replacing any older one of the same player. */
  async connect(input: { key: PlayerKey; sink: SseSink; expiresAtMs: number; lastEventId: number | null }): Promise<PlayerConnection> {
    const mapKey = playerChannel(input.key);
    const older = this.connections.get(mapKey);
    const connection = new PlayerConnection(this, input.sink, input.key, input.expiresAtMs);
    this.connections.set(mapKey, connection);
    this.stopListeningForReconnect ??= this.options.bus.onReconnect(() => this.resync());
    if (!this.presenceTimer) {
      this.presenceTimer = setInterval(() => this.renewPresence(), this.presenceTtlMs / 3);
      this.presenceTimer.unref();
    }
    if (older) await older.close("replaced");
    // Claimed, not renewed: this connection replaces whichever held the player's stream anywhere.
    await this.options.bus.mark(mapKey, connection.id, this.presenceTtlMs, { claim: true }).catch(() => {});
    this.options.onPresence?.(input.key, true, connection.id);
    try {
      await connection.start(input.lastEventId);
    } catch (error) {
      await connection.close("error");
      throw error;
    }
    return connection;
  }

  async watch(input: { key: PlayerKey; sink: SseSink }): Promise<PlayerWatcher> {
    const watcher = new PlayerWatcher(this, input.sink, input.key);
    this.watchers.add(watcher);
    await watcher.start();
    return watcher;
  }

  /** Whether this instance holds a live connection of the player. */
  isConnected(key: PlayerKey): boolean {
    return this.connections.has(playerChannel(key));
  }

  /**
   * Whether any instance holds a live connection of the player: this instance's own, else the
   * presence mark on the bus (one lookup; no instance is asked, so nothing is waited for). While the
   * bus is unreachable only this instance's connections are known.
   */
  async isOnline(key: PlayerKey): Promise<boolean> {
    if (this.isConnected(key)) return true;
    return this.options.bus.isMarked(playerChannel(key)).catch(() => false);
  }

  /** Renews the presence mark of every connection of this instance (without taking one back from a newer holder). */
  private renewPresence(): void {
    for (const [mapKey, connection] of this.connections) {
      void this.options.bus.mark(mapKey, connection.id, this.presenceTtlMs).catch(() => {});
    }
  }

  /** Whether this instance holds a connection of the player that is subscribed and caught up. */
  isLive(key: PlayerKey): boolean {
    return this.connections.get(playerChannel(key))?.live ?? false;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  forgetConnection(connection: PlayerConnection): void {
    const mapKey = playerChannel(connection.key);
    if (this.connections.get(mapKey) === connection) {
      this.connections.delete(mapKey);
      void this.options.bus.unmark(mapKey, connection.id).catch(() => {});
      this.options.onPresence?.(connection.key, false, connection.id);
      if (this.connections.size === 0) {
        this.stopListeningForReconnect?.();
        this.stopListeningForReconnect = undefined;
        clearInterval(this.presenceTimer);
        this.presenceTimer = undefined;
      }
    }
  }

  /**
   * The bus is back after an outage: every connection announces itself again and reads what it
   * missed, a few at a time so the database is not flooded. A second outage during the pass runs
   * another pass after it.
   */
  private resync(): void {
    if (this.resyncing) {
      this.resyncAgain = true;
      return;
    }
    this.resyncing = (async () => {
      do {
        this.resyncAgain = false;
        // Marks may have lapsed while the bus was away.
        this.renewPresence();
        const pending = [...this.connections.values()];
        this.logger.info({ connections: pending.length }, "event bus back: streams read what they missed");
        const worker = async () => {
          for (let connection = pending.pop(); connection; connection = pending.pop()) await connection.resync();
        };
        await Promise.all(Array.from({ length: RESYNC_CONCURRENCY }, worker));
      } while (this.resyncAgain);
    })().finally(() => {
      this.resyncing = undefined;
    });
  }

  forgetWatcher(watcher: PlayerWatcher): void {
    this.watchers.delete(watcher);
  }

  async publish(key: PlayerKey, message: PlayerBusMessage): Promise<void> {
    await this.options.bus.publish(playerChannel(key), JSON.stringify(message));
  }

  async closeAll(reason: CloseReason = "shutdown"): Promise<void> {
    await Promise.all([...this.connections.values(), ...this.watchers].map((s) => s.close(reason)));
    this.transport.stop();
  }
}
