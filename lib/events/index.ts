/**
 * Publish/subscribe by channel. In-process by default; Redis pub/sub (REDIS_URL) to reach
 * subscribers on other instances. Messages are strings (callers JSON-encode).
 */
import { Redis } from "ioredis";

export type Unsubscribe = () => Promise<void>;
export type MessageHandler = (message: string) => void;

export interface EventBus {
  readonly kind: "memory" | "redis";
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe>;
  close(): Promise<void>;
}

export interface BusLogger {
  warn(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
}

const silentLogger: BusLogger = { warn: () => {}, info: () => {} };

class HandlerRegistry {
  private readonly handlers = new Map<string, Set<MessageHandler>>();

  /** Answers true when this is the channel's first handler. */
  add(channel: string, handler: MessageHandler): boolean {
    let set = this.handlers.get(channel);
    const first = !set;
    if (!set) this.handlers.set(channel, (set = new Set()));
    set.add(handler);
    return first;
  }

  /** Answers true when the channel has no handler left. */
  remove(channel: string, handler: MessageHandler): boolean {
    const set = this.handlers.get(channel);
    if (!set) return false;
    set.delete(handler);
    if (set.size > 0) return false;
    this.handlers.delete(channel);
    return true;
  }

  dispatch(channel: string, message: string, logger: BusLogger): void {
    const set = this.handlers.get(channel);
    if (!set) return;
    for (const handler of [...set]) {
      try {
        handler(message);
      } catch (error) {
        logger.warn({ err: error, channel }, "event handler failed");
      }
    }
  }

  get channelCount(): number {
    return this.handlers.size;
  }

  clear(): void {
    this.handlers.clear();
  }
}

export class MemoryEventBus implements EventBus {
  readonly kind = "memory" as const;
  private readonly registry = new HandlerRegistry();
  constructor(private readonly logger: BusLogger = silentLogger) {}

  async publish(channel: string, message: string): Promise<void> {
    // Delivered on a later tick, as over Redis: a publisher never runs subscribers inline.
    queueMicrotask(() => this.registry.dispatch(channel, message, this.logger));
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

  /** Channels with at least one subscriber (tests check cleanup with it). */
  get channelCount(): number {
    return this.registry.channelCount;
  }

  async close(): Promise<void> {
    this.registry.clear();
  }
}

export interface RedisEventBusOptions {
  url: string;
  /** Prepended to every channel, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
  logger?: BusLogger;
}

export class RedisEventBus implements EventBus {
  readonly kind = "redis" as const;
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly registry = new HandlerRegistry();
  private readonly prefix: string;
  private readonly logger: BusLogger;

  constructor(options: RedisEventBusOptions) {
    this.prefix = options.prefix ?? "events:";
    this.logger = options.logger ?? silentLogger;
    const common = {
      // Reconnect forever, backing off to 2 s; Redis loss is logged, never fatal.
      retryStrategy: (attempt: number) => Math.min(50 * 2 ** attempt, 2_000),
      lazyConnect: false,
    };
    // A publish while Redis is away fails at once instead of queueing without bound.
    this.publisher = new Redis(options.url, { ...common, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.subscriber = new Redis(options.url, { ...common, autoResubscribe: true });
    for (const [name, client] of [["publisher", this.publisher], ["subscriber", this.subscriber]] as const) {
      client.on("error", (err: Error) => this.logger.warn({ err: err.message, client: name }, "redis event bus error"));
      client.on("reconnecting", () => this.logger.info({ client: name }, "redis event bus reconnecting"));
    }
    this.subscriber.on("message", (channel: string, message: string) => {
      if (!channel.startsWith(this.prefix)) return;
      this.registry.dispatch(channel.slice(this.prefix.length), message, this.logger);
    });
  }

  /** Resolves once both connections are up (start-up and tests). */
  async ready(): Promise<void> {
    const wait = (client: Redis) =>
      client.status === "ready" ? Promise.resolve() : new Promise<void>((resolve) => client.once("ready", () => resolve()));
    await Promise.all([wait(this.publisher), wait(this.subscriber)]);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.publisher.publish(this.prefix + channel, message);
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    if (this.registry.add(channel, handler)) {
      try {
        await this.subscriber.subscribe(this.prefix + channel);
      } catch (error) {
        // Offline: ioredis queues the subscription and autoResubscribe restores it on reconnect.
        this.logger.warn({ err: (error as Error).message, channel }, "redis subscribe deferred");
      }
    }
    let active = true;
    return async () => {
      if (!active) return;
      active = false;
      if (this.registry.remove(channel, handler)) {
        await this.subscriber.unsubscribe(this.prefix + channel).catch(() => {});
      }
    };
  }

  get channelCount(): number {
    return this.registry.channelCount;
  }

  async close(): Promise<void> {
    this.registry.clear();
    this.publisher.disconnect();
    this.subscriber.disconnect();
  }
}

export function createEventBus(options: { redisUrl?: string; prefix?: string; logger?: BusLogger }): EventBus {
  return options.redisUrl
    ? new RedisEventBus({ url: options.redisUrl, prefix: options.prefix, logger: options.logger })
    : new MemoryEventBus(options.logger);
}
