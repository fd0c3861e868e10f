import { afterEach, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { MemoryEventBus, RedisEventBus, type EventBus } from "./index";
import { startProxyFor } from "@/test-support/tcp-proxy";
import { canRunThrowawayRedis, startThrowawayRedis } from "@/test-support/throwaway";

const redisUrl = process.env.TEST_REDIS_URL;

interface Adapter {
  name: string;
  /** Two buses that stand for two instances of a service sharing one transport. */
  pair(): Promise<[EventBus, EventBus]>;
}

const adapters: Adapter[] = [
  {
    name: "memory",
    pair: async () => {
      const bus = new MemoryEventBus();
      return [bus, bus];
    },
  },
];
if (redisUrl) {
  adapters.push({
    name: "redis",
    pair: async () => {
      const prefix = `test:${randomBytes(4).toString("hex")}:`;
      const a = new RedisEventBus({ url: redisUrl, prefix });
      const b = new RedisEventBus({ url: redisUrl, prefix });
      await Promise.all([a.ready(), b.ready()]);
      return [a, b];
    },
  });
}

function collector() {
  const received: string[] = [];
  const waiters: Array<() => void> = [];
  return {
    received,
    handler: (message: string) => {
      received.push(message);
      waiters.splice(0).forEach((w) => w());
    },
    async waitFor(count: number, timeoutMs = 2_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe.each(adapters)("event bus contract: $name", (adapter) => {
  const open: EventBus[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });
  const pair = async () => {
    const buses = await adapter.pair();
    open.push(...new Set(buses));
    return buses;
  };

  it("delivers a message published on one instance to a subscriber on the other", async () => {
    const [a, b] = await pair();
    const c = collector();
    await b.subscribe("player:1", c.handler);
    await a.publish("player:1", "hello");
    await c.waitFor(1);
    expect(c.received).toEqual(["hello"]);
  });

  it("keeps channels apart and keeps order", async () => {
    const [a, b] = await pair();
    const one = collector();
    const two = collector();
    await b.subscribe("player:1", one.handler);
    await b.subscribe("player:2", two.handler);
    for (let i = 0; i < 20; i++) await a.publish("player:1", `m${i}`);
    await a.publish("player:2", "other");
    await one.waitFor(20);
    await two.waitFor(1);
    expect(one.received).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
    expect(two.received).toEqual(["other"]);
  });

  it("fans out to every subscriber and stops after unsubscribe", async () => {
    const [a, b] = await pair();
    const first = collector();
    const second = collector();
    const stopFirst = await b.subscribe("room", first.handler);
    await b.subscribe("room", second.handler);
    await a.publish("room", "x");
    await Promise.all([first.waitFor(1), second.waitFor(1)]);
    await stopFirst();
    await stopFirst(); // idempotent
    await a.publish("room", "y");
    await second.waitFor(2);
    await settle();
    expect(first.received).toEqual(["x"]);
    expect(second.received).toEqual(["x", "y"]);
  });

  it("a throwing handler does not stop the others", async () => {
    const [a, b] = await pair();
    const c = collector();
    await b.subscribe("room", () => {
      throw new Error("boom");
    });
    await b.subscribe("room", c.handler);
    await a.publish("room", "still delivered");
    await c.waitFor(1);
  });

  it("delivers a message once to a subscriber on the publishing instance", async () => {
    const [a] = await pair();
    const c = collector();
    await a.subscribe("self", c.handler);
    await a.publish("self", "one");
    await a.publish("self", "two");
    await c.waitFor(2);
    await settle();
    expect(c.received).toEqual(["one", "two"]);
    expect(a.state).toBe("ok");
  });

  it("frees channels when the last subscriber leaves", async () => {
    const [, b] = await pair();
    const stop = await b.subscribe("gone", () => {});
    expect((b as MemoryEventBus | RedisEventBus).channelCount).toBe(1);
    await stop();
    expect((b as MemoryEventBus | RedisEventBus).channelCount).toBe(0);
  });
});

describe.skipIf(!redisUrl)("redis event bus when Redis goes away", () => {
  it("logs, does not crash, and delivers again once Redis is back", async () => {
    const { proxy, url: viaProxy } = await startProxyFor(redisUrl!, 6379);
    const warnings: string[] = [];
    const logger = { warn: (_o: object, msg?: string) => warnings.push(msg ?? ""), info: () => {} };
    const prefix = `test:${randomBytes(4).toString("hex")}:`;
    const publisher = new RedisEventBus({ url: viaProxy, prefix, logger });
    const subscriber = new RedisEventBus({ url: viaProxy, prefix, logger });
    try {
      await Promise.all([publisher.ready(), subscriber.ready()]);
      const c = collector();
      await subscriber.subscribe("p", c.handler);
      await publisher.publish("p", "before");
      await c.waitFor(1);

      await proxy.cut();
      await publisher.publish("p", "during"); // delivered on its own instance only; never throws
      await proxy.restore();
      await Promise.all([publisher.ready(), subscriber.ready()]);
      // Give the subscriber's automatic resubscription a moment.
      const deadline = Date.now() + 5_000;
      while (c.received.length < 2 && Date.now() < deadline) {
        await publisher.publish("p", "after").catch(() => {});
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(c.received[0]).toBe("before");
      expect(c.received).toContain("after");
      expect(c.received).not.toContain("during");
      expect(warnings.length).toBeGreaterThan(0);
    } finally {
      await publisher.close();
      await subscriber.close();
      await proxy.close();
    }
  });
});

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(!canRunThrowawayRedis())("redis event bus while its Redis is stopped (throwaway server)", () => {
  it("keeps delivering on the publishing instance, says it is degraded, and tells listeners once it is back", { timeout: 30_000 }, async () => {
    const redis = await startThrowawayRedis();
    const a = new RedisEventBus({ url: redis.url });
    const b = new RedisEventBus({ url: redis.url });
    try {
      await Promise.all([a.ready(), b.ready()]);
      const onA = collector();
      const onB = collector();
      await a.subscribe("p", onA.handler);
      await b.subscribe("p", onB.handler);
      let reconnectsA = 0;
      let reconnectsB = 0;
      a.onReconnect(() => (reconnectsA += 1));
      b.onReconnect(() => (reconnectsB += 1));
      await a.publish("p", "before");
      await Promise.all([onA.waitFor(1), onB.waitFor(1)]);

      await redis.stop();
      await until(() => a.state === "degraded" && b.state === "degraded", 5_000, "bus degraded");
      await a.publish("p", "during");
      await onA.waitFor(2);
      expect(onA.received).toEqual(["before", "during"]);

      // A channel subscribed while Redis is away is in place once it is back.
      const late = collector();
      await b.subscribe("late", late.handler);

      await redis.start();
      await Promise.all([a.ready(), b.ready()]);
      expect(a.state).toBe("ok");
      expect(reconnectsA).toBe(1);
      expect(reconnectsB).toBe(1);
      await a.publish("p", "after");
      await a.publish("late", "hello");
      await Promise.all([onA.waitFor(3), onB.waitFor(2), late.waitFor(1)]);
      await settle();
      expect(onA.received).toEqual(["before", "during", "after"]);
      expect(onB.received).toEqual(["before", "after"]); // "during" never crossed: B reads the record instead
      expect(late.received).toEqual(["hello"]);
    } finally {
      await a.close();
      await b.close();
      await redis.destroy();
    }
  });
});
