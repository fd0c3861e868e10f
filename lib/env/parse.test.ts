import { afterEach, describe, expect, it, vi } from "vitest";
import { parseOffersEnv } from "./offers";
import { EnvError } from "./parse";
import { parsePortalEnv } from "./portal";
import { gitlabProviderHasToken, gitlabSignInComplete } from "./rules";

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("the settings were accepted");
}

describe("the offers service's settings", () => {
  it("give the embedded defaults when nothing is set", () => {
    const env = parseOffersEnv({});
    expect(env).toMatchObject({
      NODE_ENV: "development",
      DATA_DIR: ".data",
      OFFERS_PORT: 4000,
      SSE_HEARTBEAT_MS: 30_000,
      SSE_IDLE_TIMEOUT_MS: 120_000,
      OFFERS_MAX_BODY_BYTES: 65_536,
      OFFERS_DATABASE_POOL_SIZE: 8,
      OFFERS_CORS_ORIGINS: [],
      DEMO_GAME_ID: "demo-game",
    });
    expect(env.OFFERS_DATABASE_URL).toBeUndefined(); // PGlite
    expect(env.REDIS_URL).toBeUndefined(); // in-process bus
    expect(env).not.toHaveProperty("PORT"); // the portal's
  });

  it("read and convert what is set; empty URLs count as unset", () => {
    const env = parseOffersEnv({
      OFFERS_PORT: "4100",
      OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
      OFFERS_DATABASE_URL: "",
      REDIS_URL: "redis://127.0.0.1:6379",
      OFFERS_CORS_ORIGINS: "https://a.example, https://b.example",
    });
    expect(env.OFFERS_PORT).toBe(4100);
    expect(env.OFFERS_WEBHOOK_ALLOW_PRIVATE).toBe(true);
    expect(env.OFFERS_DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBe("redis://127.0.0.1:6379");
    expect(env.OFFERS_CORS_ORIGINS).toEqual(["https://a.example", "https://b.example"]);
  });

  it("stop with a message naming every bad variable and what it accepts", () => {
    const message = refusal(() => parseOffersEnv({ OFFERS_PORT: "seventy", REDIS_URL: "not a url", OFFERS_WEBHOOK_WORKER: "maybe", OFFERS_ADMIN_TOKEN: "short" }));
    expect(message).toContain("Invalid settings of the offers service");
    expect(message).toContain('OFFERS_PORT="seventy": a whole number from 1 to 65535');
    expect(message).toContain('REDIS_URL="not a url": a URL');
    expect(message).toContain('OFFERS_WEBHOOK_WORKER="maybe": one of on, off');
    expect(message).toMatch(/OFFERS_ADMIN_TOKEN="short": at least 16 characters/);
    expect(message).toContain("docs/operations/settings.md");
  });

  it("read the trusted proxies as a list and name a bad item", () => {
    expect(parseOffersEnv({}).OFFERS_TRUST_PROXY).toEqual([]);
    expect(parseOffersEnv({ OFFERS_TRUST_PROXY: "10.20.0.5, 10.0.0.0/8,loopback,fd00::/8" }).OFFERS_TRUST_PROXY).toEqual(["10.20.0.5", "10.0.0.0/8", "loopback", "fd00::/8"]);
    expect(() => parseOffersEnv({ OFFERS_TRUST_PROXY: "10.0.0.0/8,proxy.internal" })).toThrow(/OFFERS_TRUST_PROXY="10\.0\.0\.0\/8,proxy\.internal" \(item 2\): an IP address, a CIDR/);
  });

  it("ignore the portal's settings, bad or not", () => {
    expect(parseOffersEnv({ PORT: "seventy", SCM_PROVIDER: "svn", NEXTAUTH_SECRET: "short" }).OFFERS_PORT).toBe(4000);
  });
});

describe("the portal's settings", () => {
  it("give the embedded defaults when nothing is set", () => {
    const env = parsePortalEnv({});
    expect(env).toMatchObject({ NODE_ENV: "development", DATA_DIR: ".data", PORT: 3000, OFFERS_BASE_URL: "http://127.0.0.1:4000", PORTAL_DEV_LOGIN: false, SCM_PROVIDER: "local" });
    expect(env).not.toHaveProperty("OFFERS_PORT"); // the offers service's
  });

  it("ignore the offers service's own settings, bad or not, but read the admin token both share", () => {
    const env = parsePortalEnv({ OFFERS_PORT: "seventy", OFFERS_TRUST_PROXY: "proxy.internal", SSE_HEARTBEAT_MS: "soon", OFFERS_ADMIN_TOKEN: "admin-token-0123456789" });
    expect(env.OFFERS_ADMIN_TOKEN).toBe("admin-token-0123456789");
    expect(refusal(() => parsePortalEnv({ OFFERS_ADMIN_TOKEN: "short" }))).toContain('OFFERS_ADMIN_TOKEN="short": at least 16 characters');
  });

  it("stop with a message naming every bad variable of the portal", () => {
    const message = refusal(() => parsePortalEnv({ PORT: "0", SCM_PROVIDER: "svn", PORTAL_DEV_LOGIN: "yes" }));
    expect(message).toContain("Invalid settings of the portal");
    expect(message).toContain('PORT="0": a whole number from 1 to 65535');
    expect(message).toContain('SCM_PROVIDER="svn": one of local, gitlab');
    expect(message).toContain('PORTAL_DEV_LOGIN="yes": 1 or true (on), 0, false or empty (off)');
  });

  it("stop on a rule between settings, in words naming the variables", () => {
    expect(refusal(() => parsePortalEnv({ PORTAL_DEV_LOGIN: "1", PORTAL_HOST: "0.0.0.0" }))).toContain("PORTAL_DEV_LOGIN=1 with PORTAL_HOST=0.0.0.0: the development sign-in");
    expect(refusal(() => parsePortalEnv({ SCM_PROVIDER: "gitlab" }))).toContain("SCM_PROVIDER=gitlab needs GITLAB_TOKEN");
    expect(parsePortalEnv({ SCM_PROVIDER: "gitlab", GITLAB_TOKEN: "glpat-0123" }).SCM_PROVIDER).toBe("gitlab");
  });
});

describe("rules between settings", () => {
  it("GitLab source control needs a token", () => {
    expect(gitlabProviderHasToken({ SCM_PROVIDER: "gitlab", GITLAB_TOKEN: undefined })).toContain("GITLAB_TOKEN");
    expect(gitlabProviderHasToken({ SCM_PROVIDER: "gitlab", GITLAB_TOKEN: "t" })).toBeNull();
    expect(gitlabProviderHasToken({ SCM_PROVIDER: "local", GITLAB_TOKEN: undefined })).toBeNull();
  });

  it("GitLab sign-in needs both halves of its application", () => {
    expect(gitlabSignInComplete({ GITLAB_CLIENT_ID: "id", GITLAB_CLIENT_SECRET: undefined })).toBe("GITLAB_CLIENT_ID is set without GITLAB_CLIENT_SECRET: GitLab sign-in needs both (or neither, for no GitLab sign-in).");
    expect(gitlabSignInComplete({ GITLAB_CLIENT_ID: undefined, GITLAB_CLIENT_SECRET: "secret" })).toContain("GITLAB_CLIENT_SECRET is set without GITLAB_CLIENT_ID");
    expect(gitlabSignInComplete({ GITLAB_CLIENT_ID: "id", GITLAB_CLIENT_SECRET: "secret" })).toBeNull();
    expect(gitlabSignInComplete({ GITLAB_CLIENT_ID: undefined, GITLAB_CLIENT_SECRET: undefined })).toBeNull();
  });
});

describe("the shared settings lib/db reads (getBaseEnv)", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it("are the ones the service parsed, not parsed again", async () => {
    vi.stubEnv("DATABASE_TIMEOUT_MS", "7000");
    vi.resetModules();
    const { getOffersEnv } = await import("./offers");
    const { getBaseEnv } = await import("./parse");
    const service = getOffersEnv();
    expect(getBaseEnv()).toBe(service);
    expect(getBaseEnv().DATABASE_TIMEOUT_MS).toBe(7000);
  });

  it("are parsed from the environment on their own when no service parsed first, and refused in words", async () => {
    vi.stubEnv("DATABASE_TIMEOUT_MS", "7000");
    vi.resetModules();
    const { getBaseEnv } = await import("./parse");
    expect(getBaseEnv().DATABASE_TIMEOUT_MS).toBe(7000);
    vi.stubEnv("DATABASE_TIMEOUT_MS", "soon");
    vi.resetModules();
    const fresh = await import("./parse");
    expect(() => fresh.getBaseEnv()).toThrow('DATABASE_TIMEOUT_MS="soon": a whole number of milliseconds from 100 to 600000');
  });
});
