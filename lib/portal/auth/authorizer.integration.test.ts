import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import * as schema from "../db/schema";
import { testDatabaseTargets, type TestDatabase } from "@/test-support/db/test-databases";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";
import { parsePortalConfig } from "../portal-yaml";
import { createToken, seedDevToken, verifyToken } from "../tokens";
import { createAuthorizer, isSameSiteRequest, type AuthorizeResult } from "./authorizer";
import { errorResponse } from "../http/respond";
import type { Role } from "../roles";
import { sessionCookieValue } from "./session-user";

const secret = "test-secret-0123456789abcdef";
const cookieName = "next-auth.session-token";
const config = parsePortalConfig(`
roles:
  users: { lee: [lead], olga: [operator] }
  groups: { platform/operations: [operator] }
`);
const base = "http://127.0.0.1:3100";

async function sessionCookie(claims: Record<string, unknown>): Promise<string> {
  return `${cookieName}=${await encode({ token: claims, secret })}`;
}

function request(pathname: string, init: RequestInit & { headers?: Record<string, string> } = {}): Request {
  return new Request(`${base}${pathname}`, init);
}

async function body(response: Response) {
  return { status: response.status, json: await response.json() };
}

describe.each(testDatabaseTargets())("authorize() on %s", (target) => {
  let handle: TestDatabase<typeof schema>;
  // A refusal is thrown; here it is answered as route() answers it, so the tests read the HTTP body.
  let authorize: (request: Request, role?: Role) => Promise<AuthorizeResult | { ok: false; response: Response }>;
  let devLogin = true;

  beforeAll(async () => {
    handle = await openPortalTestDatabase(target);
    const deps = {
      secret,
      sessionCookieName: cookieName,
      publicOrigin: "https://portal.example.com",
      config: () => config,
      verifyToken: (token: string) => verifyToken(handle.db, token),
    };
    authorize = (req, role) => createAuthorizer({ ...deps, devLogin })(req, role).catch((e: unknown) => ({ ok: false as const, response: errorResponse(e) }));
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("answers 401 unauthenticated without a session or token", async () => {
    const result = await authorize(request("/api/x"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(await body(result.response)).toEqual({ status: 401, json: { message: "unauthenticated", detail: expect.stringContaining("sign in") } });
  });

  it("answers 401 for a forged, expired or foreign session cookie", async () => {
    const forged = await encode({ token: { username: "lee" }, secret: "another-secret-0123456789" });
    const expired = await encode({ token: { username: "lee" }, secret, maxAge: -60 });
    for (const cookie of [`${cookieName}=${forged}`, `${cookieName}=${expired}`, `${cookieName}=garbage`]) {
      const result = await authorize(request("/api/x", { headers: { cookie } }));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.response.status).toBe(401);
    }
  });

  it("accepts a session and resolves its roles from config", async () => {
    const cookie = await sessionCookie({ username: "lee", name: "Lee Lead", email: "lee@example.com", groups: ["platform/operations"], provider: "dev" });
    const result = await authorize(request("/api/x", { headers: { cookie } }), "lead");
    expect(result).toMatchObject({
      ok: true,
      via: "session",
      user: { id: "lee", name: "Lee Lead", email: "lee@example.com", roles: ["engineer", "lead", "operator"], groups: ["platform/operations"] },
    });
  });

  it("reads a session cookie split in chunks", async () => {
    const value = await encode({ token: { username: "lee" }, secret });
    const cookie = `${cookieName}.1=${value.slice(100)}; ${cookieName}.0=${value.slice(0, 100)}`;
    const result = await authorize(request("/api/x", { headers: { cookie } }));
    expect(result.ok && result.user.id).toBe("lee");
    expect(sessionCookieValue(cookieName, () => [])).toBeUndefined();
  });

  it("answers 403 naming the missing role", async () => {
    const cookie = await sessionCookie({ username: "lee", provider: "dev" });
    const result = await authorize(request("/api/x", { headers: { cookie } }), "operator");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(await body(result.response)).toEqual({ status: 403, json: { message: "forbidden", detail: expect.stringContaining("operator"), requiredRole: "operator" } });
  });

  it("refuses a development session once the development sign-in is off", async () => {
    const cookie = await sessionCookie({ username: "lee", provider: "dev" });
    devLogin = false;
    try {
      const result = await authorize(request("/api/x", { headers: { cookie } }));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.response.status).toBe(401);
      const gitlab = await sessionCookie({ username: "lee", provider: "gitlab" });
      expect((await authorize(request("/api/x", { headers: { cookie: gitlab } }))).ok).toBe(true);
    } finally {
      devLogin = true;
    }
  });

  describe("cross-site requests with a cookie session", () => {
    let cookie: string;
    beforeAll(async () => {
      cookie = await sessionCookie({ username: "olga", provider: "dev" });
    });

    it("refuses a mutating request from another site (Sec-Fetch-Site)", async () => {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const result = await authorize(request("/api/x", { method, headers: { cookie, "sec-fetch-site": "cross-site", origin: "https://evil.example" } }));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(await body(result.response)).toEqual({ status: 403, json: { message: "cross-site-request", detail: expect.stringContaining("another site") } });
      }
      const sameSite = await authorize(request("/api/x", { method: "POST", headers: { cookie, "sec-fetch-site": "same-site" } }));
      expect(sameSite.ok).toBe(false);
    });

    it("refuses a mutating request whose Origin is not ours (no Sec-Fetch-Site)", async () => {
      for (const origin of ["https://evil.example", "null", "http://127.0.0.1:3101"]) {
        const result = await authorize(request("/api/x", { method: "POST", headers: { cookie, origin } }));
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.response.status).toBe(403);
      }
    });

    it("refuses a mutating request with neither Origin nor Sec-Fetch-Site (only a non-browser caller sends neither)", async () => {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        const result = await authorize(request("/api/x", { method, headers: { cookie } }), "operator");
        expect(result.ok).toBe(false);
        if (!result.ok) expect(await body(result.response)).toEqual({ status: 403, json: { message: "cross-site-request", detail: expect.stringContaining("personal API token") } });
      }
    });

    it("accepts same-origin requests and the public origin", async () => {
      const cases: Record<string, string>[] = [
        { "sec-fetch-site": "same-origin", origin: base },
        { "sec-fetch-site": "same-origin" },
        { origin: base },
        { origin: "https://portal.example.com" },
        { origin: "https://portal.internal", host: "portal.internal", "x-forwarded-proto": "https" },
      ];
      for (const headers of cases) {
        const result = await authorize(request("/api/x", { method: "POST", headers: { cookie, ...headers } }), "operator");
        expect(result.ok, JSON.stringify(headers)).toBe(true);
      }
    });

    it("does not check the origin of safe methods", async () => {
      const result = await authorize(request("/api/x", { headers: { cookie, "sec-fetch-site": "cross-site", origin: "https://evil.example" } }));
      expect(result.ok).toBe(true);
    });

    it("isSameSiteRequest treats a user-typed navigation (none) as same-site", () => {
      expect(isSameSiteRequest(request("/x", { method: "POST", headers: { "sec-fetch-site": "none" } }))).toBe(true);
    });
  });

  describe("personal API tokens", () => {
    it("ignores other Authorization schemes (a proxy's Basic) and uses the session", async () => {
      const cookie = await sessionCookie({ username: "lee", provider: "dev" });
      const result = await authorize(request("/api/x", { headers: { authorization: "Basic YTpi", cookie } }));
      expect(result.ok && result.user.id).toBe("lee");
    });

    it("accepts Authorization: Bearer without an Origin check, with the owner's roles", async () => {
      const created = await createToken(handle.db, { id: "olga", name: "Olga", groups: [] }, "ci");
      const result = await authorize(
        request("/api/x", { method: "POST", headers: { authorization: `Bearer ${created.token}`, origin: "https://elsewhere.example", "sec-fetch-site": "cross-site" } }),
        "operator",
      );
      expect(result).toMatchObject({ ok: true, via: "token", user: { id: "olga", name: "Olga", roles: ["engineer", "operator"], groups: [] } });
      const forbidden = await authorize(request("/api/x", { headers: { authorization: `Bearer ${created.token}` } }), "lead");
      expect(forbidden.ok).toBe(false);
      if (!forbidden.ok) expect(await body(forbidden.response)).toEqual({ status: 403, json: { message: "forbidden", detail: expect.stringContaining("lead"), requiredRole: "lead" } });
    });

    it("the seeded dev token is admin's and has every role", async () => {
      await seedDevToken(handle.db, "e2e-admin-token-0123456789");
      const result = await authorize(request("/api/x", { method: "DELETE", headers: { authorization: "Bearer e2e-admin-token-0123456789" } }), "support");
      expect(result).toMatchObject({ ok: true, user: { id: "admin", roles: ["engineer", "admin"] } });
    });

    it("answers 401 for an unknown, revoked or malformed token, even with a valid session cookie", async () => {
      const cookie = await sessionCookie({ username: "lee", provider: "dev" });
      for (const authorization of ["Bearer pat_nope", "Bearer", "Bearer a b"]) {
        const result = await authorize(request("/api/x", { headers: { authorization, cookie } }));
        expect(result.ok, authorization).toBe(false);
        if (!result.ok) expect(await body(result.response)).toEqual({ status: 401, json: { message: "unauthenticated", detail: expect.stringContaining("sign in") } });
      }
    });
  });
});
