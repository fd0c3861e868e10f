/**
 * Publish/subscribe by channel. In-process by default; Redis pub/sub (REDIS_URL) to reach
 * subscribers on other instances. Messages are strings (callers JSON-encode).
 *
 * Delivery to this instance's own subscribers never depends on Redis: a message is dispatched
 * locally and also sent to Redis for the other instances (its echo from Redis is dropped, so a
 * local subscriber gets it once). While Redis is away the bus says so (`state`), and when it is
 * back and every subscription is restored it tells `onReconnect` listeners, which read what they
 * may have missed from the record (the database).
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export type Unsubscribe = () => Promise<void>;
export type MessageHandler = (message: string) => void;
/** "degraded": other instances are out of reach; this instance's subscribers still get every message. */
export type BusState = "ok" | "degraded";

export interface EventBus {
  readonly kind: "memory" | "redis";
  readonly state: BusState;
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe>;
  /**
   * Calls `listener` each time the bus receives from other instances again after an outage (every
   * subscription restored): messages published elsewhere meanwhile were lost. Answers a remover.
   */
  onReconnect(listener: () => void): () => void;
  /**
   * Presence shared by every instance on this bus (who holds a player's stream): `member` holds `key`
   * for `ttlMs`. `claim` takes the key from any other member; without it the mark is only renewed
   * (or taken when nobody holds the key), so a renewal never takes a key back from a newer holder.
   * A member that stops renewing (its process died) lapses after `ttlMs`.
   */
  mark(key: string, member: string, ttlMs: number, options?: { claim?: boolean }): Promise<void>;
  /** Ends `member`'s hold on `key`; another member's hold stays. */
  unmark(key: string, member: string): Promise<void>;
  /** Whether some member holds `key` now (one lookup, no question asked of other instances). */
  isMarked(key: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface BusLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

const silentLogger: BusLogger = { warn: () => {}, info: () => {} };

class HandlerRegistry {
  /**
   * A channel's handler, or its handlers once it has more than one: nearly every channel is one
   * player's stream with one handler, and a Set per channel costs some 200 bytes per open stream.
   */
  private readonly handlers = new Map<string, MessageHandler | Set<MessageHandler>>();

  /** Answers true when this is the channel's first handler. */
  add(channel: string, handler: MessageHandler): boolean {
    const present = this.handlers.get(channel);
    if (!present) this.handlers.set(channel, handler);
    else if (present instanceof Set) present.add(handler);
    else if (present !== handler) this.handlers.set(channel, new Set([present, handler]));
    return !present;
  }

  /** Answers true when the channel has no handler left. */
  remove(channel: string, handler: MessageHandler): boolean {
    const present = this.handlers.get(channel);
    if (!present) return false;
    if (present instanceof Set) {
      present.delete(handler);
      if (present.size > 0) return false;
    } else if (present !== handler) return false;
    this.handlers.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.handlers.has(channel);
  }

  dispatch(channel: string, message: string, logger: BusLogger): void {
    const present = this.handlers.get(channel);
    if (!present) return;
    for (const handler of present instanceof Set ? [...present] : [present]) {
      try {
        handler(message);
      } catch (error) {
        logger.warn({ err: error, channel }, "event handler failed");
      }
    }
  }

  /** Dispatches on a later tick, as a transport would: a publisher never runs subscribers inline. */
  dispatchSoon(channel: string, message: string, logger: BusLogger): void {
    queueMicrotask(() => this.dispatch(channel, message, logger));
  }

  channels(): string[] {
    return [...this.handlers.keys()];
  }

  get channelCount(): number {
    return this.handlers.size;
  }

  clear(): void {
    this.handlers.clear();
  }
}

class ListenerSet {
  private readonly listeners = new Set<() => void>();

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  notify(logger: BusLogger): void {
    for (const listener of [...this.listeners]) {
      try {
        listener();
      } catch (error) {
        logger.warn({ err: error }, "event bus reconnect listener failed");
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }

  clear(): void {
    this.listeners.clear();
  }
}

export class MemoryEventBus implements EventBus {
  readonly kind = "memory" as const;
  readonly state = "ok" as const;
  private readonly registry = new HandlerRegistry();
  private readonly reconnectListeners = new ListenerSet();
  private readonly marks = new Map<string, { member: string; until: number }>();
  constructor(private readonly logger: BusLogger = silentLogger) {}

  async mark(key: string, member: string, ttlMs: number, options: { claim?: boolean } = {}): Promise<void> {
    const held = this.marks.get(key);
    const now = Date.now();
    if (options.claim || !held || held.member === member || held.until <= now) this.marks.set(key, { member, until: now + ttlMs });
  }

  async unmark(key: string, member: string): Promise<void> {
    if (this.marks.get(key)?.member === member) this.marks.delete(key);
  }

  async isMarked(key: string): Promise<boolean> {
    const held = this.marks.get(key);
    if (held && held.until <= Date.now()) this.marks.delete(key);
    return !!held && held.until > Date.now();
  }

  async publish(channel: string, message: string): Promise<void> {
    this.registry.dispatchSoon(channel, message, this.logger);
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    this.registry.add(channel, handler);
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      this.registry.remove(channel, handler);
    };
  }

  /** An in-process bus has no outage to recover from; listeners are kept only to be counted. */
  onReconnect(listener: () => void): () => void {
    return this.reconnectListeners.add(listener);
  }

  /** Channels with at least one subscriber (tests check cleanup with it). */
  get channelCount(): number {
    return this.registry.channelCount;
  }

  get reconnectListenerCount(): number {
    return this.reconnectListeners.size;
  }

  async close(): Promise<void> {
    this.registry.clear();
    this.reconnectListeners.clear();
    this.marks.clear();
  }
}

export interface RedisEventBusOptions {
  url: string;
  /** Prepended to every channel, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
  logger?: BusLogger;
}

/** Renews a mark: taken when nobody holds the key, kept when this member does, else left alone. */
const RENEW_MARK = `local held = redis.call('get', KEYS[1])
if held == false or held == ARGV[1] then redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) end
return 1`;
/** Ends a member's mark, not another member's. */
const END_MARK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/** Channels per SUBSCRIBE command when restoring subscriptions after a reconnect. */
const RESUBSCRIBE_BATCH = 1_000;
/** Marks who published a message on Redis: `<16 hex chars>:<message>`. */
const ORIGIN = /^[0-9a-f]{16}:/;

export class RedisEventBus implements EventBus {
  readonly kind = "redis" as const;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly registry = new HandlerRegistry();
  private readonly reconnectListeners = new ListenerSet();
  private readonly prefix: string;
  private readonly logger: BusLogger;
  /** This bus's id on Redis: its own messages coming back are dropped (they were delivered locally). */
  private readonly origin = randomBytes(8).toString("hex");
  /** The subscriber holds every subscription of the registry (set after each (re)subscribe completes). */
  private subscribed = false;
  private publishFailing = false;
  /** Subscriptions were restored; listeners are told once publishing works too. */
  private reconnectPending = false;
  private closed = false;

  constructor(options: RedisEventBusOptions) {
    this.prefix = options.prefix ?? "events:";
    this.logger = options.logger ?? silentLogger;
    const common = {
      // Reconnect forever, backing off to 2 s; Redis loss is logged, never fatal.
      retryStrategy: (attempt: number) => Math.min(50 * 2 ** attempt, 2_000),
      lazyConnect: false,
      // While Redis is away, commands fail at once instead of queueing without bound or waiting:
      // local delivery goes on, and subscriptions are restored by resubscribe() when it is back.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    };
    this.publisher = new Redis(options.url, common);
    this.subscriber = new Redis(options.url, { ...common, autoResubscribe: false });
    for (const [name, client] of [["publisher", this.publisher], ["subscriber", this.subscriber]] as const) {
      client.on("error", (err: Error) => this.logger.warn({ err: err.message, client: name }, "redis event bus error"));
      client.on("reconnecting", () => this.logger.info({ client: name }, "redis event bus reconnecting"));
    }
    this.subscriber.on("close", () => {
      if (this.subscribed) this.logger.warn({}, "redis event bus lost: delivering on this instance only until it is back");
      this.subscribed = false;
    });
    this.subscriber.on("ready", () => void this.resubscribe());
    this.publisher.on("ready", () => this.notifyIfBack());
    this.subscriber.on("message", (channel: string, payload: string) => {
      if (!channel.startsWith(this.prefix)) return;
      let message = payload;
      if (ORIGIN.test(payload)) {
        if (payload.slice(0, 16) === this.origin) return; // ours: already delivered locally
        message = payload.slice(17);
      }
      this.registry.dispatch(channel.slice(this.prefix.length), message, this.logger);
    });
  }

  get state(): BusState {
    return this.subscribed && this.publisher.status === "ready" ? "ok" : "degraded";
  }

  /** Resolves once both connections are up and every subscription is in place (start-up and tests). */
  async ready(): Promise<void> {
    while (this.state !== "ok" && !this.closed) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Restores every subscription on a fresh connection, then tells the listeners what may be missed. */
  private async resubscribe(): Promise<void> {
    const channels = this.registry.channels();
    try {
      for (let i = 0; i < channels.length; i += RESUBSCRIBE_BATCH) {
        await this.subscriber.subscribe(...channels.slice(i, i + RESUBSCRIBE_BATCH).map((c) => this.prefix + c));
      }
      // A channel whose last subscriber left meanwhile: do not keep it on Redis.
      const gone = channels.filter((c) => !this.registry.has(c)).map((c) => this.prefix + c);
      if (gone.length > 0) await this.subscriber.unsubscribe(...gone);
    } catch (error) {
      // Lost again while restoring; the next "ready" starts over.
      this.logger.warn({ err: (error as Error).message }, "redis resubscribe failed");
      return;
    }
    if (this.subscriber.status !== "ready" || this.closed) return;
    this.subscribed = true;
    this.reconnectPending = true;
    this.logger.info({ channels: channels.length }, "redis event bus receiving");
    this.notifyIfBack();
  }

  /** Listeners act on both directions (they read what they missed and publish), so wait for both connections. */
  private notifyIfBack(): void {
    if (!this.reconnectPending || this.state !== "ok") return;
    this.reconnectPending = false;
    this.reconnectListeners.notify(this.logger);
  }

  async publish(channel: string, message: string): Promise<void> {
    this.registry.dispatchSoon(channel, message, this.logger);
    if (this.closed) return;
    try {
      await this.publisher.publish(this.prefix + channel, `${this.origin}:${message}`);
      if (this.publishFailing) this.logger.info({}, "redis event bus publishing again");
      this.publishFailing = false;
    } catch (error) {
      // Other instances miss it; they read it from the database when their own connection comes back.
      if (!this.publishFailing) this.logger.warn({ err: (error as Error).message }, "redis event bus publish failed: delivered on this instance only");
      this.publishFailing = true;
    }
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    if (this.registry.add(channel, handler) && this.subscriber.status === "ready") {
      try {
        await this.subscriber.subscribe(this.prefix + channel);
      } catch (error) {
        // Lost meanwhile: resubscribe() restores it when Redis is back.
        this.logger.warn({ err: (error as Error).message, channel }, "redis subscribe deferred");
      }
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      if (this.registry.remove(channel, handler) && this.subscriber.status === "ready") {
        await this.subscriber.unsubscribe(this.prefix + channel).catch(() => {});
      }
    };
  }

  onReconnect(listener: () => void): () => void {
    return this.reconnectListeners.add(listener);
  }

  /** Marks are keys of their own on Redis (`<prefix>mark:<key>`) with a time to live. */
  async mark(key: string, member: string, ttlMs: number, options: { claim?: boolean } = {}): Promise<void> {
    const name = `${this.prefix}mark:${key}`;
    if (options.claim) await this.publisher.set(name, member, "PX", ttlMs);
    else await this.publisher.eval(RENEW_MARK, 1, name, member, String(ttlMs));
  }

  async unmark(key: string, member: string): Promise<void> {
    await this.publisher.eval(END_MARK, 1, `${this.prefix}mark:${key}`, member);
  }

  async isMarked(key: string): Promise<boolean> {
    return (await this.publisher.exists(`${this.prefix}mark:${key}`)) > 0;
  }

  get channelCount(): number {
    return this.registry.channelCount;
  }

  get reconnectListenerCount(): number {
    return this.reconnectListeners.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribed = false;
    this.registry.clear();
    this.reconnectListeners.clear();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}

export function createEventBus(options: { redisUrl?: string; prefix?: string; logger?: BusLogger }): EventBus {
  return options.redisUrl
    ? new RedisEventBus({ url: options.redisUrl, prefix: options.prefix, logger: options.logger })
    : new MemoryEventBus(options.logger);
}
