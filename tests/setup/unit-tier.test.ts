// The unit tier's guard (unit-tier.ts): a database or Redis opened by a unit test fails at once, naming the tier to move to.
import { describe, expect, it } from "vitest";
import { openOffersTestDatabase } from "../../test-support/offers/test-database";
import { createScratchPostgres } from "../../test-support/db/test-databases";
import { createEventBus } from "../../lib/events";

describe("the unit tier", () => {
  it("refuses a PGlite database", async () => {
    await expect(openOffersTestDatabase("pglite")).rejects.toThrow("A unit test opens no database (PGlite): name this file *.integration.test.ts");
  });

  it("refuses a PostgreSQL connection", async () => {
    const before = process.env.TEST_DATABASE_URL;
    process.env.TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";
    try {
      await expect(createScratchPostgres()).rejects.toThrow("A unit test opens no database (PostgreSQL)");
    } finally {
      if (before === undefined) delete process.env.TEST_DATABASE_URL;
      else process.env.TEST_DATABASE_URL = before;
    }
  });

  it("refuses a Redis connection", () => {
    expect(() => createEventBus({ redisUrl: "redis://127.0.0.1:6379" })).toThrow("A unit test opens no Redis connection");
  });
});
