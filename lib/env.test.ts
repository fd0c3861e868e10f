import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

describe("parseEnv", () => {
  it("gives the embedded defaults when nothing is set", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      DATA_DIR: ".data",
      OFFERS_PORT: 4000,
      PORT: 3000,
      OFFERS_BASE_URL: "http://127.0.0.1:4000",
      SSE_HEARTBEAT_MS: 30_000,
      SSE_IDLE_TIMEOUT_MS: 120_000,
      OFFERS_MAX_BODY_BYTES: 65_536,
      OFFERS_DATABASE_POOL_SIZE: 8,
      OFFERS_CORS_ORIGINS: [],
      PORTAL_DEV_LOGIN: false,
      SCM_PROVIDER: "local",
      DEMO_GAME_ID: "demo-game",
    });
    expect(env.OFFERS_DATABASE_URL).toBeUndefined(); // PGlite
    expect(env.REDIS_URL).toBeUndefined(); // in-process bus
  });

  it("reads and converts what is set; empty URLs count as unset", () => {
    const env = parseEnv({
      OFFERS_PORT: "4100",
      PORTAL_DEV_LOGIN: "1",
      OFFERS_DATABASE_URL: "",
      REDIS_URL: "redis://127.0.0.1:6379",
      OFFERS_CORS_ORIGINS: "https://a.example, https://b.example",
    });
    expect(env.OFFERS_PORT).toBe(4100);
    expect(env.PORTAL_DEV_LOGIN).toBe(true);
    expect(env.OFFERS_DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(env.OFFERS_CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });

  it("stops with a message naming every bad variable and what it expects", () => {
    let error: unknown;
    try {
      parseEnv({ OFFERS_PORT: "seventy", REDIS_URL: "not a url", SCM_PROVIDER: "svn", OFFERS_ADMIN_TOKEN: "short" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    const message = (error as Error).message;
    expect(message).toContain('OFFERS_PORT="seventy"');
    expect(message).toContain('REDIS_URL="not a url"');
    expect(message).toContain('SCM_PROVIDER="svn"');
    expect(message).toMatch(/OFFERS_ADMIN_TOKEN="short": at least 16 characters/);
    expect(message).toContain("docs/operations/settings.md");
  });

  it("reads the trusted proxies as a list and names a bad item", () => {
    expect(parseEnv({}).OFFERS_TRUST_PROXY).toEqual([]);
    expect(parseEnv({ OFFERS_TRUST_PROXY: "10.20.0.5, 10.0.0.0/8,loopback,fd00::/8" }).OFFERS_TRUST_PROXY).toEqual(["10.20.0.5", "10.0.0.0/8", "loopback", "fd00::/8"]);
    expect(() => parseEnv({ OFFERS_TRUST_PROXY: "10.0.0.0/8,proxy.internal" })).toThrow(/OFFERS_TRUST_PROXY="10\.0\.0\.0\/8,proxy\.internal" \(item 2\): an IP address, a CIDR/);
  });
});
