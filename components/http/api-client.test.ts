import { afterEach, describe, expect, it, vi } from "vitest";
import { apiErrorOf, apiFetch, ApiError, describeApiError, retryWhileUnavailable } from "./api-client";

afterEach(() => vi.unstubAllGlobals());

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  return vi.fn(async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } }));
}

describe("the portal's fetch client", () => {
  it("answers the JSON body of a 2xx, sending JSON with its content type", async () => {
    const fetch = answer(201, { id: "t1" });
    vi.stubGlobal("fetch", fetch);
    await expect(apiFetch("/api/tokens", { method: "POST", json: { name: "ci" } })).resolves.toEqual({ id: "t1" });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/tokens");
    expect(init.body).toBe('{"name":"ci"}');
    expect(init.headers).toMatchObject({ Accept: "application/json", "Content-Type": "application/json" });
  });

  it("reads today's error body: code, detail and issues with array paths", async () => {
    vi.stubGlobal("fetch", answer(400, { message: "invalid-request", detail: "The body is not valid.", issues: [{ path: ["updates", "0", "values"], message: "name at least one key" }] }));
    const error = (await apiFetch("/api/x").catch((e) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: "invalid-request", detail: "The body is not valid.", issues: [{ path: ["updates", "0", "values"], message: "name at least one key" }] });
    expect(error.retryable).toBe(false);
    expect(describeApiError(error)).toBe("The body is not valid: updates[0].values: name at least one key");
  });

  it("shows the detail of each family: a conflict, invalid config with its issues, the role needed, a stale write", () => {
    expect(describeApiError(apiErrorOf(409, { message: "already-released", detail: "0.2.0 is already in production" }))).toBe("0.2.0 is already in production");
    expect(
      describeApiError(
        apiErrorOf(422, { message: "invalid-config", detail: "the config update is not valid; nothing was written", issues: [{ path: ["updates", "0", "values", "1x"], message: "a key starts with a letter" }] }),
      ),
    ).toBe("the config update is not valid; nothing was written: updates[0].values.1x: a key starts with a letter");
    const forbidden = apiErrorOf(403, { message: "forbidden", detail: "this needs the operator role", requiredRole: "operator" });
    expect(forbidden).toMatchObject({ code: "forbidden", requiredRole: "operator" });
    expect(describeApiError(forbidden)).toBe("this needs the operator role");
    expect(describeApiError(apiErrorOf(403, { message: "forbidden", requiredRole: "operator" }))).toBe("This needs the operator role.");
    expect(describeApiError(apiErrorOf(412, { message: "precondition-failed", detail: "the component changed since you loaded it", etag: '"e1"' }))).toBe("the component changed since you loaded it");
    expect(describeApiError(apiErrorOf(401, { message: "unauthenticated" }))).toBe("You are signed out. Sign in again.");
    expect(describeApiError(new Error("Failed to fetch"))).toBe("Failed to fetch");
  });

  it("turns a bare code into a sentence, and lets a feature word its own codes", () => {
    expect(describeApiError(apiErrorOf(404, { message: "token-not-found" }))).toBe("Token not found.");
    expect(describeApiError(apiErrorOf(404, { message: "player-not-found" }), { codes: { "player-not-found": "No such player." } })).toBe("No such player.");
    expect(describeApiError(apiErrorOf(500, "not json at all"))).toBe("The request failed (HTTP 500).");
    expect(describeApiError(apiErrorOf(502, {}))).toBe("The request failed (HTTP 502).");
  });

  it("marks 503 and Retry-After answers as worth retrying, and waits as long as asked", async () => {
    vi.stubGlobal("fetch", answer(503, { message: "database-unavailable", detail: "the portal database is not answering" }, { "Retry-After": "5" }));
    const error = (await apiFetch("/api/x").catch((e) => e)) as ApiError;
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(5000);
    expect(retryWhileUnavailable.retry(1, error)).toBe(true);
    expect(retryWhileUnavailable.retry(100, error)).toBe(false);
    expect(retryWhileUnavailable.retryDelay(1, error)).toBe(5000);
    expect(retryWhileUnavailable.retry(1, apiErrorOf(404, { message: "not-found" }))).toBe(false);
  });

  it("a portal out of reach is an ApiError of its own; an aborted call stays an abort", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    const error = (await apiFetch("/api/x").catch((e) => e)) as ApiError;
    expect(error).toMatchObject({ status: 0, code: "portal-unreachable" });
    expect(describeApiError(error)).toBe("The portal could not be reached. Check your connection.");

    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new DOMException("aborted", "AbortError"))));
    await expect(apiFetch("/api/x", { signal: controller.signal })).rejects.toMatchObject({ name: "AbortError" });
  });
});
