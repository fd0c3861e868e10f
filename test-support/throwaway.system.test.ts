import pg from "pg";
import { describe, expect, it } from "vitest";
import { canRunThrowawayPostgres, canRunThrowawayRedis, startThrowawayPostgres, startThrowawayRedis } from "./throwaway";

describe.skipIf(!canRunThrowawayPostgres())("throwaway PostgreSQL", () => {
  it("answers, freezes, thaws, restarts and is removed", { timeout: 60_000 }, async () => {
    const server = await startThrowawayPostgres();
    try {
      const query = async () => {
        const client = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 1_000, query_timeout: 1_000 });
        try {
          await client.connect();
          return (await client.query("select 1 as one")).rows[0].one as number;
        } finally {
          await client.end().catch(() => {});
        }
      };
      expect(await query()).toBe(1);
      server.freeze();
      await expect(query()).rejects.toThrow();
      server.thaw();
      expect(await query()).toBe(1);
      await server.stop();
      await expect(query()).rejects.toThrow();
      await server.start();
      expect(await query()).toBe(1);
    } finally {
      await server.destroy();
    }
  });
});

describe.skipIf(!canRunThrowawayRedis())("throwaway Redis", () => {
  it("starts, stops and starts again on its port", { timeout: 30_000 }, async () => {
    const { Redis } = await import("ioredis");
    const server = await startThrowawayRedis();
    const client = new Redis(server.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    try {
      await client.connect();
      expect(await client.ping()).toBe("PONG");
      client.disconnect();
      await server.stop();
      await server.start();
      const again = new Redis(server.url, { maxRetriesPerRequest: 0 });
      expect(await again.ping()).toBe("PONG");
      again.disconnect();
    } finally {
      client.disconnect();
      await server.destroy();
    }
  });
});
