/**
 * The SSRF guard and the bad input of the delivery API: which addresses are refused, that the
 * refusal happens on the address a connection resolves to (not only on the saved URL), and that
 * every bad request answers a documented 4xx, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { checkEndpointUrl, guardedLookup, isPrivateAddress } from "./address-guard";
import { encodeCursor } from "./feed";
import { createSender } from "./sender";
import { startReceiver } from "@/test-support/offers/delivery";

describe("private addresses", () => {
  /** Every address a webhook may not reach in production, with the range it falls in. */
  const refused: Array<[address: string, range: string]> = [
    ["0.0.0.0", "this network"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local (cloud metadata)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.2", "documentation TEST-NET-1"],
    ["198.51.100.7", "documentation TEST-NET-2"],
    ["203.0.113.9", "documentation TEST-NET-3"],
    ["192.88.99.1", "6to4 relay anycast"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fd12:3456::1", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["::ffff:127.0.0.1", "IPv4-mapped loopback"],
    ["::ffff:10.0.0.1", "IPv4-mapped private"],
    ["::ffff:192.0.2.2", "IPv4-mapped documentation"],
    ["::7f00:1", "IPv4-compatible loopback"],
    ["::127.0.0.1", "IPv4-compatible loopback, dotted"],
    ["::8.8.8.8", "IPv4-compatible (deprecated), even of a public address"],
    ["::ffff:0:7f00:1", "IPv4-translated loopback"],
    ["::ffff:0:808:808", "IPv4-translated (::ffff:0:0:0/96), even of a public address"],
    ["64:ff9b::7f00:1", "NAT64 of loopback"],
    ["64:ff9b::a00:1", "NAT64 of private"],
    ["64:ff9b:1::7f00:1", "local-use NAT64 (64:ff9b:1::/48)"],
    ["64:ff9b:1::808:808", "local-use NAT64, even of a public address"],
    ["2002:7f00:1::1", "6to4 of loopback"],
    ["2002:808:808::1", "6to4, even of a public address"],
    ["2001::1", "Teredo"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["2001:db8::1", "documentation"],
    ["2001:2::1", "benchmarking"],
    ["3fff::1", "documentation (2024)"],
    ["100::1", "discard-only"],
    ["100:0:0:1::1", "dummy prefix"],
    ["5f00::1", "segment routing"],
    ["4000::1", "outside global unicast 2000::/3"],
  ];
  /** Ordinary public addresses, which must still pass. */
  const allowed: Array<[address: string, what: string]> = [
    ["8.8.8.8", "public IPv4"],
    ["1.1.1.1", "public IPv4"],
    ["93.184.216.34", "public IPv4"],
    ["172.32.0.1", "just above 172.16.0.0/12"],
    ["192.0.3.1", "just above TEST-NET-1"],
    ["2606:4700:4700::1111", "public IPv6"],
    ["2a00:1450:4001:830::200e", "public IPv6"],
    ["::ffff:8.8.8.8", "IPv4-mapped public"],
    ["64:ff9b::808:808", "NAT64 (well-known prefix) of a public address, as DNS64 answers"],
  ];

  it.each(refused)("%s (%s) is refused", (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(allowed)("%s (%s) is allowed", (address) => expect(isPrivateAddress(address)).toBe(false));

  it("refuses the same addresses written in a URL, in any spelling the URL parser accepts", async () => {
    const policy = { allowPrivate: false };
    for (const url of ["http://192.0.2.2/x", "http://[::7f00:1]/x", "http://[::ffff:7f00:1]/x", "http://[64:ff9b:1::7f00:1]/x", "http://[2002:7f00:1::]/x", "http://0x7f.1/x", "http://3221225986/x"]) {
      await expect(checkEndpointUrl(new URL(url), policy), url).rejects.toThrow(/loopback or private/);
    }
    await expect(checkEndpointUrl(new URL("http://8.8.8.8/x"), policy)).resolves.toBeUndefined();
  });

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

  it("refuses credentials in a webhook URL, and says the length limit of a long one, on the game-server and admin APIs", async () => {
    const admin = { authorization: "Bearer test-admin-token-0123456789" };
    const created = await t.post("/v1/webhooks/endpoints", { url: "https://hooks.example.com/creds" }, h);
    expect(created.status).toBe(200);
    const id = created.body.endpointId as string;
    const calls = (url: string) => [
      { method: "POST" as const, path: "/v1/webhooks/endpoints", headers: h },
      { method: "PATCH" as const, path: `/v1/webhooks/endpoints/${id}`, headers: h },
      { method: "POST" as const, path: "/v1/admin/games/game-a/webhooks/endpoints", headers: admin },
      { method: "PATCH" as const, path: `/v1/admin/games/game-a/webhooks/endpoints/${id}`, headers: admin },
    ].map((c) => ({ ...c, payload: { url } }));
    const expectRefused = async (url: string, message: string) => {
      for (const c of calls(url)) {
        const res = await t.inject({ method: c.method, url: c.path, headers: c.headers, payload: c.payload });
        expect(res.statusCode, `${c.method} ${c.path} ${url.slice(0, 60)}`).toBe(400);
        expect(res.json()).toEqual({ message: "invalid-request", issues: [{ path: ["url"], message }] });
      }
    };
    for (const url of ["https://user:pass@hooks.example.com/x", "https://token@hooks.example.com/x", "https://:secret@hooks.example.com/x"]) {
      await expectRefused(url, "must not carry a user name or password (user:pass@); verify the signature instead");
    }
    await expectRefused(`https://hooks.example.com/${"x".repeat(2048)}`, "must be at most 2,048 characters");
    // Nothing stored or changed: the one endpoint, as created.
    const listed = (await t.inject({ method: "GET", url: "/v1/webhooks/endpoints", headers: h })).json();
    expect(listed.endpoints.map((e: { url: string }) => e.url)).toEqual(["https://hooks.example.com/creds"]);
    await t.inject({ method: "DELETE", url: `/v1/webhooks/endpoints/${id}`, headers: h });
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
    const bad = ["nonsense", encodeCursor("game-a", { xid: "1", id: 1 }).slice(0, -2), Buffer.from("r1.-1.2").toString("base64url"), "%%%", encodeCursor("game-a", { xid: "18446744073709551616", id: 1 }), encodeCursor("game-a", { xid: "1", id: 2 ** 60 })];
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
    expect(empty.json()).toEqual({ events: [], next: encodeCursor("game-a", { xid: "0", id: 0 }), hasMore: false });
  });
});
