/**
 * Setup of the unit tier: a unit test touches no database and no Redis. Opening one fails at once
 * with the file's tier named, instead of the file quietly slowing the edit loop down.
 */
import { vi } from "vitest";

function refuse(what: string): never {
  throw new Error(`A unit test opens no ${what}: name this file *.integration.test.ts (vitest.config.ts describes the tiers)`);
}

vi.mock("@electric-sql/pglite", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  PGlite: class {
    static create(): never {
      return refuse("database (PGlite)");
    }
    constructor() {
      refuse("database (PGlite)");
    }
  },
}));

vi.mock("pg", async (importOriginal) => {
  const real = await importOriginal<{ default: object }>();
  const Pool = class {
    constructor() {
      refuse("database (PostgreSQL)");
    }
  };
  const Client = class {
    constructor() {
      refuse("database (PostgreSQL)");
    }
  };
  return { ...real, default: { ...real.default, Pool, Client }, Pool, Client };
});

vi.mock("ioredis", async (importOriginal) => {
  const Redis = class {
    constructor() {
      refuse("Redis connection");
    }
  };
  return { ...(await importOriginal<object>()), Redis, default: Redis };
});
