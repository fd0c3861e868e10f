// The portal's admin client against a tiny local HTTP server standing in for the offers service:
// answers checked against the schemas, error mapping (down, 5xx, token refused, 404, bad shape,
// timeout), and the watch relay that passes chunks through and aborts upstream when cancelled.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";


const {
  createOffersAdminClient,
  offersAdminSettings,
  OffersAdminError,
  relayEventStream,
  unavailableEventStream,
  eventStreamHeaders,
} = await import("./offers-admin");
const { parsePortalEnv } = await import("../env/portal");
const { persistentSecret } = await import("../secrets");
const { errorResponse } = await import("./http/respond");
const { statusOf } = await import("./http/status");

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let handler: Handler = (_req, res) => res.end();
let server: Server;
let baseUrl: string;
const TOKEN = "test-admin-token-0123456789";

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

const client = (timeoutMs = 2_000) => createOffersAdminClient({ baseUrl, token: TOKEN, timeoutMs });

const game = { gameId: "g1", name: "Game one", maxOfferSlots: 3, players: 2, currencies: [{ id: "gold", name: "Gold", image: "data:," }] };

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OffersAdminError);
  return error as InstanceType<typeof OffersAdminError>;
}

describe("offers admin client", () => {
  it("sends the Bearer admin token and answers the parsed games", async () => {
    let seen: IncomingMessage | undefined;
    handler = (req, res) => {
      seen = req;
      json(res, 200, { games: [game] });
    };
    await expect(client().listGames()).resolves.toEqual([game]);
    expect(seen?.url).toBe("/v1/admin/games");
    expect(seen?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("encodes path segments and the search query", async () => {
    let url = "";
    handler = (req, res) => {
      url = req.url ?? "";
      json(res, 200, { players: [{ playerId: "p 1", username: "Ann", updatedAt: "2026-01-01T00:00:00.000Z" }] });
    };
    const players = await client().findPlayers("game/1", "an n%", 5);
    expect(players[0]?.playerId).toBe("p 1");
    expect(url).toBe("/v1/admin/games/game%2F1/players?q=an+n%25&limit=5");
  });

  it("maps a refused connection to offers-service-unavailable (503)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const down = createOffersAdminClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
    const error = await failure(down.listGames());
    expect(statusOf[error.code]).toBe(503);
    expect(error.code).toBe("offers-service-unavailable");
    expect(error.unavailable).toBe(true);
    expect(error.message).toMatch(/ECONNREFUSED/);

    const response = errorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toMatchObject({ message: "offers-service-unavailable" });
  });

  it("maps a 5xx answer to unavailable", async () => {
    handler = (_req, res) => json(res, 503, { status: "unavailable" });
    expect((await failure(client().listGames())).code).toBe("offers-service-unavailable");
  });

  it("maps a refused admin token to a 502 configuration error", async () => {
    handler = (_req, res) => json(res, 401, { message: "invalid-admin-token" });
    const error = await failure(client().listGames());
    expect(statusOf[error.code]).toBe(502);
    expect(error.code).toBe("offers-admin-token-rejected");
  });

  it("passes the service's 404 code through", async () => {
    handler = (_req, res) => json(res, 404, { message: "player-not-found" });
    const error = await failure(client().playerState("g1", "nobody"));
    expect(statusOf[error.code]).toBe(404);
    expect(error.code).toBe("player-not-found");
    const response = errorResponse(error);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: "player-not-found" });
  });

  it("refuses an answer of the wrong shape", async () => {
    handler = (_req, res) => json(res, 200, { games: [{ gameId: 1 }] });
    const error = await failure(client().listGames());
    expect(error.code).toBe("offers-bad-response");
    expect(statusOf[error.code]).toBe(502);
    handler = (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      res.end("<html>proxy error</html>");
    };
    expect((await failure(client().listGames())).code).toBe("offers-bad-response");
  });

  it("gives up after the timeout when the service does not answer", async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const error = await failure(client(200).listGames());
    expect(error.code).toBe("offers-service-unavailable");
    expect(error.message).toMatch(/200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("sends a definition as JSON with the If-Match it was given, untouched, and an empty JSON body on a bare POST", async () => {
    const seen: Array<{ method?: string; url?: string; ifMatch?: string; type?: string; body: string }> = [];
    const definition = {
      gameId: "g1", offerId: "o1", name: "O", description: "", rewards: [], realTime: true, durationSeconds: 60, priority: 0, status: "draft", version: 4, etag: '"opaque-4"',
      audience: { field: "loginStreak", op: "gte", value: 3 }, schedule: { startsAt: null, endsAt: null },
      limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0, maxClaimsTotal: null }, rollout: 100, variants: null,
      createdAt: "2026-01-01T00:00:00.000Z", updatedAt: "2026-01-01T00:00:00.000Z",
    };
    handler = (req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        seen.push({ method: req.method, url: req.url, ifMatch: req.headers["if-match"], type: req.headers["content-type"], body });
        json(res, 200, { definition, before: definition, changed: true, job: null });
      });
    };
    const input = { name: "O", description: "", rewards: [{ kind: "coins" as const, rewardId: "gold", name: "Gold", amount: 5 }], realTime: true, durationSeconds: 60, priority: 0, rollout: 100 };
    await expect(client().updateDefinition("g1", "o1", input, '"opaque-3"')).resolves.toMatchObject({ changed: true, definition: { version: 4, etag: '"opaque-4"' } });
    await client().changeDefinitionStatus("g1", "o 1", "activate", 'W/"opaque-4", "x"');
    expect(seen).toEqual([
      { method: "PUT", url: "/v1/admin/games/g1/definitions/o1", ifMatch: '"opaque-3"', type: "application/json", body: JSON.stringify(input) },
      { method: "POST", url: "/v1/admin/games/g1/definitions/o%201/activate", ifMatch: 'W/"opaque-4", "x"', type: "application/json", body: "{}" },
    ]);
  });

  it("passes the live-ops refusals through with their code, and invalid-request with its issues", async () => {
    for (const [status, code] of [[409, "definition-exists"], [409, "definition-archived"], [404, "offer-not-found"]] as const) {
      handler = (_req, res) => json(res, status, { message: code });
      const error = await failure(client().changeDefinitionStatus("g1", "o1", "activate", '"e"'));
      expect(error.code).toBe(code);
      expect(statusOf[error.code]).toBe(status);
    }
    handler = (_req, res) => json(res, 428, { message: "precondition-required" });
    expect(errorResponse(await client().changeDefinitionStatus("g1", "o1", "activate", "").catch((e: unknown) => e)).status).toBe(428);
    // A stale If-Match: 412 with the service's current ETag, in the portal's body and header as it came.
    handler = (_req, res) => json(res, 412, { message: "precondition-failed", etag: '"current"' });
    const stale = errorResponse(await client().updateWebhookEndpoint("g1", "ep_1", { enabled: false }, '"old"').catch((e: unknown) => e));
    expect(stale.status).toBe(412);
    expect(stale.headers.get("etag")).toBe('"current"');
    expect(await stale.json()).toEqual({ message: "precondition-failed", detail: expect.stringContaining("reload to see their change"), etag: '"current"' });
    handler = (_req, res) => json(res, 400, { message: "invalid-request", issues: [{ path: ["audience", "all", 0, "value"], message: "gte takes a finite number" }] });
    const refused = await client().audienceCount("g1", { audience: { all: [] } }).catch((e: unknown) => e);
    const response = errorResponse(refused);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      message: "invalid-request",
      detail: "the offers service refused the request: audience.all.0.value: gte takes a finite number",
      issues: [{ path: ["audience", "all", "0", "value"], message: "gte takes a finite number" }],
    });
  });

  it("uses OFFERS_ADMIN_TOKEN, else the same generated secret file as the offers service", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "offers-admin-"));
    try {
      const explicit = offersAdminSettings(parsePortalEnv({ DATA_DIR: dir, OFFERS_ADMIN_TOKEN: "explicit-token-0123456789", OFFERS_BASE_URL: "http://127.0.0.1:4100" }));
      expect(explicit).toEqual({ baseUrl: "http://127.0.0.1:4100", token: "explicit-token-0123456789" });
      const generated = offersAdminSettings(parsePortalEnv({ DATA_DIR: dir }));
      expect(generated.token).toBe(persistentSecret(dir, "offers-admin-token"));
      expect(generated.token.length).toBeGreaterThan(20);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("watch stream relay", () => {
  it("passes events through as they come and aborts upstream when the browser goes away", async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let write!: (text: string) => void;
    handler = (req, res) => {
      expect(req.url).toBe("/v1/admin/games/g1/players/p1/watch");
      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.write("event: presence\ndata: {\"connected\":false}\n\n");
      write = (text) => res.write(text);
      req.on("close", upstreamClosed);
    };
    const controller = new AbortController();
    const upstream = await client().openWatch("g1", "p1", controller.signal);
    const body = relayEventStream(upstream, () => controller.abort());
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const next = async () => decoder.decode((await reader.read()).value);
    expect(await next()).toContain("event: presence");
    write("event: surfaced\ndata: {\"seq\":1}\n\n");
    expect(await next()).toContain("event: surfaced");
    await reader.cancel();
    await closed; // the upstream request ended: the offers service frees its watcher
    expect(controller.signal.aborted).toBe(true);
  });

  it("ends the relayed stream when upstream ends", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/event-stream" });
      res.end("event: presence\ndata: {}\n\n");
    };
    const upstream = await client().openWatch("g1", "p1");
    const text = await new Response(relayEventStream(upstream, () => {})).text();
    expect(text).toBe("event: presence\ndata: {}\n\n");
  });

  it("maps watch failures like the JSON calls and refuses a non-stream answer", async () => {
    handler = (_req, res) => json(res, 401, { message: "invalid-admin-token" });
    expect((await failure(client().openWatch("g1", "p1"))).code).toBe("offers-admin-token-rejected");
    handler = (_req, res) => json(res, 200, {});
    expect((await failure(client().openWatch("g1", "p1"))).code).toBe("offers-bad-response");
  });

  it("answers an event stream that asks the browser to retry when the service is down", async () => {
    const response = unavailableEventStream(new OffersAdminError("offers-service-unavailable", "down"), 1500);
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(eventStreamHeaders)) expect(response.headers.get(name)).toBe(value);
    const text = await response.text();
    expect(text.startsWith("retry: 1500\nevent: unavailable\ndata: ")).toBe(true);
    expect(JSON.parse(text.split("data: ")[1]!)).toMatchObject({ message: "offers-service-unavailable" });
  });
});
