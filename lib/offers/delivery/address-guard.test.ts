/**
 * The SSRF guard and the bad input of the delivery API: which addresses are refused, that the
 * refusal happens on the address a connection resolves to (not only on the saved URL), and that
 * every bad request answers a documented 4xx, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "../../db/testing";
import { startOffersTestApp, type OffersTestContext } from "../testing";
import { checkEndpointUrl, guardedLookup, isPrivateAddress } from "./address-guard";
import { encodeCursor } from "./feed";
import { createSender } from "./sender";
import { startReceiver } from "./testing";

describe("private addresses", () => {
  it.each([
    "127.0.0.1", "127.255.0.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "::1", "::", "fd12:3456::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "224.0.0.1",
  ])("%s is refused", (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(["8.8.8.8", "172.32.0.1", "93.184.216.34", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("%s is allowed", (address) => expect(isPrivateAddress(address)).toBe(false));

  it("refuses a name that resolves to loopback, at lookup time (as a connection would resolve it)", async () => {
    const lookup = guardedLookup({ allowPrivate: false });
    const error = await new Promise<Error | null>((resolve) => lookup("localhost", {}, (err) => resolve(err)));
    expect(error?.message).toMatch(/loopback or private/);
    const allowed = await new Promise<Error | null>((resolve) => guardedLookup({ allowPrivate: true })("localhost", {}, (err) => resolve(err)));
    expect(allowed).toBeNull();
  });

  it("refuses loopback URLs when they are saved", async () => {
    await expect(checkEndpointUrl(new URL("http://127.0.0.1:9/x"), { allowPrivate: false })).rejects.toThrow(/loopback or private/);
    await expect(checkEndpointUrl(new URL("http://[::1]/x"), { allowPrivate: false })).rejects.toThrow(/loopback or private/);
    await expect(checkEndpointUrl(new URL("http://localhost/x"), { allowPrivate: false })).rejects.toThrow(/loopback or private/);
    await expect(checkEndpointUrl(new URL("http://127.0.0.1:9/x"), { allowPrivate: true })).resolves.toBeUndefined();
  });

  it("sends nothing to a private address at delivery time, whatever the URL was when it was saved", async () => {
    const receiver = await startReceiver();
    try {
      const sender = createSender({ policy: { allowPrivate: false }, timeoutMs: 2_000 });
      const message = { id: "msg_1", body: "{}", timestamp: new Date() };
      const secret = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
      const byAddress = await sender.send(receiver.url, [secret], message);
      const byName = await sender.send(receiver.url.replace("127.0.0.1", "localhost"), [secret], message);
      sender.close();
      expect(byAddress).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^refused: /) });
      expect(byName).toMatchObject({ ok: false, statusCode: null, error: expect.stringMatching(/^refused: localhost resolves to/) });
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });
});

describe.each(testDatabaseTargets())("bad input to the delivery API on %s", (target) => {
  let t: OffersTestContext;
  let h: Record<string, string>;
  beforeAll(async () => {
    // As in production: private addresses refused.
    t = await startOffersTestApp(target, { webhookAddressPolicy: { allowPrivate: false } });
    h = t.apiHeaders();
  });
  afterAll(async () => t?.close());

  it("refuses URLs that are not http(s), or that reach private addresses, with documented codes", async () => {
    const ftp = await t.post("/v1/webhooks/endpoints", { url: "ftp://hooks.example.com/x" }, h);
    expect(ftp.status).toBe(400);
    expect(ftp.body).toMatchObject({ message: "invalid-request", issues: [{ path: ["url"], message: "must be an http:// or https:// URL" }] });
    for (const url of ["http://127.0.0.1:8080/hook", "http://localhost/hook", "http://169.254.169.254/latest", "http://[::1]/hook", "http://10.0.0.8/hook"]) {
      const res = await t.post("/v1/webhooks/endpoints", { url }, h);
      expect(res.status, url).toBe(400);
      expect(res.body, url).toEqual({ message: "webhook-url-not-allowed" });
    }
    expect((await t.post("/v1/webhooks/endpoints", { url: "https://hooks.example.com/x", eventTypes: ["reward.revoked"] }, h)).status).toBe(400);
    expect((await t.post("/v1/webhooks/endpoints", { url: "https://hooks.example.com/x", eventTypes: [] }, h)).status).toBe(400);
    // Nothing was stored.
    expect((await t.inject({ method: "GET", url: "/v1/webhooks/endpoints", headers: h })).json()).toEqual({ endpoints: [] });
  });

  it("answers 404 for an endpoint of no one, or of another game", async () => {
    const created = await t.post("/v1/webhooks/endpoints", { url: "https://hooks.example.com/a" }, h);
    expect(created.status).toBe(200);
    const other = await t.app.offers.games.createGame({ gameId: "game-b", name: "B", clientId: "client-b", apiKey: "api-key-of-game-b-0123456789" });
    const foreign = await t.inject({ method: "PATCH", url: `/v1/webhooks/endpoints/${created.body.endpointId}`, headers: t.apiHeaders(other), payload: { enabled: false } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: "webhook-endpoint-not-found" });
    expect((await t.inject({ method: "DELETE", url: "/v1/webhooks/endpoints/ep_nothing", headers: h })).statusCode).toBe(404);
    expect((await t.post("/v1/webhooks/endpoints/ep_nothing/test", {}, h)).status).toBe(404);
    const empty = await t.inject({ method: "PATCH", url: `/v1/webhooks/endpoints/${created.body.endpointId}`, headers: h, payload: {} });
    expect(empty.statusCode).toBe(400);
    const toPrivate = await t.inject({ method: "PATCH", url: `/v1/webhooks/endpoints/${created.body.endpointId}`, headers: h, payload: { url: "http://192.168.0.10/x" } });
    expect(toPrivate.json()).toEqual({ message: "webhook-url-not-allowed" });
  });

  it("refuses a feed cursor it did not write, and limits out of range", async () => {
    const bad = ["nonsense", encodeCursor({ xid: "1", id: 1 }).slice(0, -2), Buffer.from("r1.-1.2").toString("base64url"), "%%%", encodeCursor({ xid: "18446744073709551616", id: 1 }), encodeCursor({ xid: "1", id: 2 ** 60 })];
    for (const after of bad) {
      const res = await t.inject({ method: "GET", url: `/v1/rewards/events?after=${encodeURIComponent(after)}`, headers: h });
      expect(res.statusCode, after).toBe(400);
      expect(res.json(), after).toEqual({ message: "invalid-cursor" });
    }
    for (const limit of ["0", "501", "x"]) {
      expect((await t.inject({ method: "GET", url: `/v1/rewards/events?limit=${limit}`, headers: h })).statusCode).toBe(400);
    }
    expect((await t.inject({ method: "GET", url: "/v1/rewards/events" })).statusCode).toBe(401);
    const empty = await t.inject({ method: "GET", url: "/v1/rewards/events", headers: h });
    expect(empty.json()).toEqual({ events: [], next: encodeCursor({ xid: "0", id: 0 }), hasMore: false });
  });
});
