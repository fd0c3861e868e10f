// route(): the one preamble of the portal's API routes, on a real portal (test-support/portal/test-portal.ts): the
// user signs in through the real authorizer (a session, or a personal API token for "via token").
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { OffersAdminError } from "../offers-admin-error";
import { ScmError } from "@/lib/scm/types";
import { CatalogWriteError } from "@/lib/catalog/errors";
import { PORTAL_ERROR_CODES } from "../errors";
import { scmCodeOf, statusOf } from "./status";
import { createPortalServices, setPortalServicesForTests } from "../services";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

let portal: PortalTest;
let alice: Record<string, string> = {};
let aliceToken: Record<string, string> = {};
beforeAll(async () => {
  // These routes are made up to test the mapper: no OpenAPI table of codes to hold them to (one test below does).
  portal = await startPortalTest({ settings: (settings) => ({ ...settings, checkErrorDocs: false }) });
  alice = await portal.signIn({ id: "alice", name: "Alice", roles: ["engineer"] });
  aliceToken = await portal.signIn({ id: "alice", name: "Alice", roles: ["engineer"] }, "token");
});
afterAll(async () => {
  await portal?.close();
});

const { route, publicRoute, PortalError, json } = await import("./index");

const req = (url: string, init: RequestInit = {}) => new Request(`http://portal.test${url}`, { ...init, headers: { ...alice, ...(init.headers as Record<string, string>) } });
const ctx = (params: Record<string, string | string[]> = {}) => ({ params: Promise.resolve(params) });
const answer = async (response: Response) => ({ status: response.status, body: await response.json() });

// The made-up routes answer anything: what they test is the preamble, not a contract.
const anything = { responses: { 200: { description: "anything", schema: z.unknown() } } };

const echo = route({
  doc: anything,
  params: z.object({ id: z.string() }),
  query: z.object({ q: z.string().optional() }),
  body: z.object({ name: z.string(), tags: z.array(z.string()).optional(), meta: z.record(z.string(), z.unknown()).optional() }),
  handler: async ({ params, query, body, user }) => json({ params, query, body, user: user.id }),
});
const post = (body: string, url = "/x/1") => echo(req(url, { method: "POST", body, headers: { "content-type": "application/json" } }), ctx({ id: "1" }));

describe("route()", () => {
  it("parses the path, query and body, and hands the user to the handler", async () => {
    expect(await answer(await post(JSON.stringify({ name: "n" }), "/x/1?q=hello"))).toEqual({
      status: 200,
      body: { params: { id: "1" }, query: { q: "hello" }, body: { name: "n" }, user: "alice" },
    });
  });

  it("authenticates first: 401 and 403 naming the role, as the guard throws them", async () => {
    expect(await answer(await echo(new Request("http://portal.test/x/1", { method: "POST", body: "{}" }), ctx({ id: "1" })))).toEqual({ status: 401, body: { message: "unauthenticated", detail: expect.stringContaining("sign in") } });
    const admins = route({ doc: anything, role: "admin", handler: async () => json({}) });
    expect(await answer(await admins(req("/a")))).toEqual({ status: 403, body: { message: "forbidden", detail: "this needs the admin role", requiredRole: "admin" } });
  });

  it("a list of roles lets in a holder of any of them; the 403 names them all", async () => {
    const either = route({ doc: anything, role: ["support", "liveops"], handler: async ({ user }) => json({ user: user.id }) });
    expect(await answer(await either(req("/e")))).toEqual({ status: 403, body: { message: "forbidden", detail: "this needs the support or liveops role", requiredRole: "support or liveops" } });
    const lina = await portal.signIn({ id: "lina", roles: ["liveops"] });
    const admin = await portal.signIn({ id: "root", roles: ["admin"] });
    for (const headers of [lina, admin]) {
      expect((await either(new Request("http://portal.test/e", { headers }))).status).toBe(200);
    }
  });

  it("refuses U+0000 anywhere in the body, keys included, with 400 invalid-request and where it is", async () => {
    for (const [body, path] of [
      [{ name: "a\u0000b" }, ["name"]],
      [{ name: "n", tags: ["ok", "\u0000"] }, ["tags", "1"]],
      [{ name: "n", meta: { "k\u0000": 1 } }, ["meta", '"k\\u0000"']],
      [{ name: "n", meta: { deep: { deeper: ["\u0000"] } } }, ["meta", "deep", "deeper", "0"]],
    ] as const) {
      const { status, body: answered } = await answer(await post(JSON.stringify(body)));
      expect(status).toBe(400);
      expect(answered).toMatchObject({ message: "invalid-request", detail: expect.stringContaining("U+0000"), issues: [{ path, message: expect.stringContaining("U+0000") }] });
    }
  });

  it("refuses U+0000 in the query and the path, and lone surrogates anywhere", async () => {
    expect(await answer(await post(JSON.stringify({ name: "n" }), "/x/1?q=a%00b"))).toMatchObject({ status: 400, body: { message: "invalid-request", issues: [{ path: ["q"] }] } });
    expect(await answer(await post(JSON.stringify({ name: "n" }), "/x/1?a%00=b"))).toMatchObject({ status: 400, body: { message: "invalid-request" } });
    const inPath = await echo(req("/x/1", { method: "POST", body: '{"name":"n"}' }), ctx({ id: "a\u0000" }));
    expect(await answer(inPath)).toMatchObject({ status: 400, body: { message: "invalid-request", issues: [{ path: ["id"] }] } });
    for (const lone of ['"\\ud800"', '"x\\udc00y"', '"\\ud800\\ud800"']) {
      expect(await answer(await post(`{"name":${lone}}`))).toMatchObject({ status: 400, body: { message: "invalid-request", detail: expect.stringContaining("surrogate") } });
    }
    // A surrogate pair is a well-formed character.
    expect((await post(JSON.stringify({ name: "😀" }))).status).toBe(200);
  });

  it("refuses JSON nested deeper than 64 levels (and survives far deeper)", async () => {
    const nested = (depth: number) => `{"name":"n","meta":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
    expect((await post(nested(60))).status).toBe(200);
    for (const depth of [70, 100_000]) expect(await answer(await post(nested(depth)))).toMatchObject({ status: 400, body: { message: "invalid-request", detail: expect.stringContaining("nested") } });
  });

  it("answers bad JSON, a bad body and a large body in the standard shape", async () => {
    expect(await answer(await post("{nope"))).toEqual({ status: 400, body: { message: "invalid-request", detail: "the body is not valid JSON", issues: [{ path: [], message: "the body is not valid JSON" }] } });
    expect(await answer(await post(JSON.stringify({ name: 3 })))).toMatchObject({ status: 400, body: { message: "invalid-request", issues: [{ path: ["name"] }] } });
    expect(await answer(await post(JSON.stringify({ name: "x".repeat(300_000) })))).toMatchObject({ status: 413, body: { message: "payload-too-large" } });
  });

  it("a part may name another error for bad input (a missing If-Match is 428), in the same body", async () => {
    const guarded = route({
      doc: anything,
      headers: { schema: z.object({ "if-match": z.string() }), invalid: () => new PortalError("precondition-required", "If-Match is required") },
      handler: async () => json({}),
    });
    expect(await answer(await guarded(req("/g")))).toEqual({ status: 428, body: { message: "precondition-required", detail: "If-Match is required" } });
    const sentence = route({ doc: anything, query: z.object({ view: z.enum(["a"], { error: "view must be a" }) }), handler: async () => json({}) });
    expect(await answer(await sentence(req("/s?view=b")))).toEqual({
      status: 400,
      body: { message: "invalid-request", detail: "the query is not valid: view: view must be a", issues: [{ path: ["view"], message: "view must be a" }] },
    });
  });

  it("maps what handlers throw in one place", async () => {
    const throwing = (error: unknown) => route({ doc: anything, handler: async () => Promise.reject(error) })(req("/t"));
    expect(await answer(await throwing(new PortalError("order-decided", "this order is already approved")))).toEqual({ status: 409, body: { message: "order-decided", detail: "this order is already approved" } });
    expect(await answer(await throwing(new ScmError("not_found", "no such repository")))).toEqual({ status: 404, body: { message: "not-found", detail: "no such repository" } });
    const busy = await throwing(new ScmError("rate_limited", "slow down"));
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(await answer(busy)).toEqual({ status: 503, body: { message: "source-control-busy", detail: "slow down" } });
    const stale = await throwing(new CatalogWriteError("precondition-failed", "the component changed", { fields: { etag: '"abc"' } }));
    expect(stale.headers.get("etag")).toBe('"abc"');
    expect(await answer(stale)).toEqual({ status: 412, body: { message: "precondition-failed", detail: "the component changed", etag: '"abc"' } });
    const invalid = await throwing(new CatalogWriteError("invalid-record", "the record is not valid", { issues: [{ path: ["spec", "owners", "0"], message: "required" }] }));
    expect(await answer(invalid)).toEqual({ status: 422, body: { message: "invalid-record", detail: "the record is not valid", issues: [{ path: ["spec", "owners", "0"], message: "required" }] } });
    const offline = await throwing(new OffersAdminError("offers-service-unavailable", "offers service unavailable: ECONNREFUSED"));
    expect(offline.headers.get("retry-after")).toBe("5");
    expect(await answer(offline)).toEqual({ status: 503, body: { message: "offers-service-unavailable", detail: "offers service unavailable: ECONNREFUSED" } });
    expect(await answer(await throwing(new PortalError("not-found", "no such thing")))).toEqual({ status: 404, body: { message: "not-found", detail: "no such thing" } });
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      expect(await answer(await throwing(new TypeError("a bug")))).toEqual({ status: 500, body: { message: "internal-error", detail: expect.any(String) } });
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it("answers a caller that went away with 499 and logs nothing (the work it cancelled failed, not the portal)", async () => {
    const left = new AbortController();
    const cancelled = route({
      doc: anything,
      handler: async ({ request }) => {
        left.abort();
        // What an upstream call aborted by the request's own signal throws.
        throw request.signal.reason ?? new DOMException("This operation was aborted", "AbortError");
      },
    });
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const response = await cancelled(new Request("http://portal.test/t", { headers: alice, signal: left.signal }));
      expect(response.status).toBe(499);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    // A failure while the caller still waits is answered and logged as before.
    expect((await route({ doc: anything, handler: async () => Promise.reject(new PortalError("not-found", "gone")) })(req("/t"))).status).toBe(404);
  });

  it("answers 503 database-unavailable with Retry-After when the database is out of reach or too slow, the guard's token check included", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      const failures = [
        new Error("Failed query: select 1", { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }) }),
        new Error("Failed query: select 1", { cause: new Error("Query read timeout") }),
        Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }),
        new Error("timeout exceeded when trying to connect"),
      ];
      for (const failure of failures) {
        const response = await route({ doc: anything, handler: async () => Promise.reject(failure) })(req("/d"));
        expect(response.headers.get("retry-after")).toBe("5");
        expect(await answer(response)).toEqual({ status: 503, body: { message: "database-unavailable", detail: expect.stringContaining("database") } });
      }
      // The guard's token check on a database out of reach (nothing listens on port 1).
      const down = createPortalServices({ ...portal.services.settings, database: { url: "postgres://portal@127.0.0.1:1/portal" } });
      const restore = setPortalServicesForTests(down);
      try {
        const viaGuard = await route({ doc: anything, handler: async () => json({}) })(req("/d", { headers: aliceToken }));
        expect(await answer(viaGuard)).toMatchObject({ status: 503, body: { message: "database-unavailable" } });
      } finally {
        restore();
        await down.close();
      }
    } finally {
      warn.mockRestore();
    }
  });

  it("sessionOnly refuses personal API tokens", async () => {
    const sessions = route({ doc: anything, sessionOnly: true, handler: async () => json({ ok: true }) });
    expect(await answer(await sessions(req("/s", { headers: aliceToken })))).toEqual({ status: 403, body: { message: "session-required", detail: expect.stringContaining("session") } });
    expect((await sessions(req("/s"))).status).toBe(200);
  });

  it("publicRoute needs no user and applies the same rules", async () => {
    const open = publicRoute({ doc: anything, query: z.object({ q: z.string() }), handler: async ({ query }) => json(query) });
    expect(await answer(await open(new Request("http://portal.test/p?q=1")))).toEqual({ status: 200, body: { q: "1" } });
    expect((await open(new Request("http://portal.test/p?q=%00"))).status).toBe(400);
  });

  it("holds a route to its OpenAPI table of codes when checked (tests): a code it lacks answers 500, logged", async () => {
    const settings = portal.services.settings;
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    settings.checkErrorDocs = true;
    try {
      const documented = route({ doc: { ...anything, errors: ["order-decided"] }, handler: async () => Promise.reject(new PortalError("order-decided", "decided")) });
      expect((await documented(req("/c"))).status).toBe(409);
      const undocumented = route({ doc: anything, handler: async () => Promise.reject(new PortalError("order-decided", "decided")) });
      expect(await answer(await undocumented(req("/c")))).toEqual({ status: 500, body: { message: "internal-error", detail: "undocumented error order-decided" } });
      expect(spy).toHaveBeenCalledWith(expect.stringContaining("answered order-decided, which its OpenAPI table lacks"));
      // What the spec implies needs no table: a missing sign-in.
      expect((await documented(new Request("http://portal.test/c"))).status).toBe(401);
    } finally {
      settings.checkErrorDocs = false;
      spy.mockRestore();
    }
  });
});

describe("declared answers, checked in tests", () => {
  it("a body that breaks its schema or an undeclared status answers 500, logged", async () => {
    const settings = portal.services.settings;
    const spy = vi.spyOn(console, "error").mockImplementation(() => {});
    settings.checkErrorDocs = true;
    try {
      const Thing = z.object({ name: z.string() });
      // What a handler typed as any (a cast, a JSON value passed through) could still send.
      const loose = (body: unknown, status = 200) =>
        route({ doc: { responses: { 200: { description: "a thing", schema: Thing }, 304: { description: "unchanged", noBody: true } } }, handler: async () => json(body as { name: string }, { status }) });
      expect(await answer(await loose({ name: "ok" })(req("/t")))).toEqual({ status: 200, body: { name: "ok" } });
      expect(await answer(await loose({ name: 3 })(req("/t")))).toEqual({ status: 500, body: { message: "internal-error", detail: expect.stringContaining("name: ") } });
      expect(spy).toHaveBeenCalledWith(expect.stringContaining("GET /t 200: the body does not match its schema"));
      expect((await loose({ name: "ok" }, 201)(req("/t"))).status).toBe(500);
      expect(spy).toHaveBeenCalledWith(expect.stringContaining("status 201 is not among the route's declared answers"));
    } finally {
      settings.checkErrorDocs = false;
      spy.mockRestore();
    }
  });
});

describe("the status table", () => {
  it("is total over the closed union of codes, and holds nothing else", () => {
    expect(Object.keys(statusOf).sort()).toEqual([...PORTAL_ERROR_CODES].sort());
    expect(new Set(PORTAL_ERROR_CODES).size).toBe(PORTAL_ERROR_CODES.length);
    for (const code of PORTAL_ERROR_CODES) expect(statusOf[code], code).toSatisfy((s: number) => Number.isInteger(s) && s >= 400 && s <= 599);
  });

  it("gives every source-control code a portal code, and every code a stable shape (lowercase words and dashes)", () => {
    for (const code of Object.values(scmCodeOf)) expect(PORTAL_ERROR_CODES).toContain(code);
    for (const code of PORTAL_ERROR_CODES) expect(code).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  it("answers every code in the one body shape, Retry-After on each 503", async () => {
    const { errorResponse } = await import("./respond");
    for (const code of PORTAL_ERROR_CODES) {
      const response = errorResponse(new PortalError(code, `a ${code}`));
      expect(response.status, code).toBe(statusOf[code]);
      expect(await response.json(), code).toEqual({ message: code, detail: `a ${code}` });
      expect(response.headers.get("retry-after"), code).toBe(statusOf[code] === 503 ? "5" : null);
    }
  });
});
