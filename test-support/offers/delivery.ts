/**
 * Test helpers of reward delivery: a real HTTP receiver on loopback that verifies every request's
 * signature with the standardwebhooks package (as a game server would) and answers as told.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { EndpointRow } from "../../lib/offers/delivery/endpoints";
import type { RewardEventRow } from "../../lib/offers/delivery/events";
import type { DeliveryRow } from "../../lib/offers/delivery/rules";

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The parsed body when the signature verified with the secret; null when it did not. */
  verified: unknown;
  at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status, or never answer. */
export type Behaviour = (request: { n: number; id: string }) => number | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  /** The secret to verify with (known once the endpoint is created). */
  secret: string | undefined;
  behave(behaviour: Behaviour): void;
  /** Answers every request left hanging so far with `status`. */
  release(status?: number): void;
  /** Requests whose webhook-id is `id`. */
  of(id: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(options: { path?: string } = {}): Promise<Receiver> {
  let behaviour: Behaviour = () => 200;
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: "",
    received,
    secret: undefined,
    behave: (next) => (behaviour = next),
    release: (status = 200) => {
      for (const response of hanging) response.writeHead(status, { "content-type": "text/plain" }).end("ok");
    },
    of: (id) => received.filter((r) => r.id === id),
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = {
        "webhook-id": String(request.headers["webhook-id"] ?? ""),
        "webhook-timestamp": String(request.headers["webhook-timestamp"] ?? ""),
        "webhook-signature": String(request.headers["webhook-signature"] ?? ""),
      };
      let verified: unknown = null;
      try {
        if (receiver.secret) verified = new Webhook(receiver.secret).verify(body, headers);
      } catch {
        verified = null;
      }
      const n = received.length;
      received.push({ id: headers["webhook-id"], timestamp: headers["webhook-timestamp"], signature: headers["webhook-signature"], body, verified, at: Date.now() });
      const answer = behaviour({ n, id: headers["webhook-id"] });
      if (answer === "hang") {
        hanging.add(response);
        response.on("close", () => hanging.delete(response));
        return;
      }
      response.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${options.path ?? "/webhooks/rewards"}`;
  return receiver;
}

/** Polls `check` until it stops throwing (default 15 s), then answers its value. */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

/** Rows as the queue answers them, for tests of the pure rules and stages (no database). */
export function deliveryRowFor(fields: Partial<DeliveryRow> = {}): DeliveryRow {
  const at = new Date(Date.UTC(2026, 0, 1, 12));
  return {
    id: 1,
    endpointId: "ep_1",
    gameId: "game-1",
    messageId: "evt_1",
    eventType: "reward.granted",
    rewardEventId: 1,
    payload: null,
    status: "pending",
    tries: 0,
    attempts: 0,
    nextAttemptAt: at,
    leaseToken: "lease-1",
    leasedUntil: at,
    lastAttemptAt: null,
    lastStatusCode: null,
    lastError: null,
    lastLatencyMs: null,
    replayedAt: null,
    attemptLog: [],
    eventAt: at,
    createdAt: at,
    deliveredAt: null,
    failedAt: null,
    updatedAt: at,
    ...fields,
  };
}

export function endpointRowFor(fields: Partial<EndpointRow> = {}): EndpointRow {
  const at = new Date(Date.UTC(2026, 0, 1, 12));
  return {
    endpointId: "ep_1",
    gameId: "game-1",
    url: "https://games.example/webhooks",
    description: "",
    eventTypes: ["reward.granted"],
    enabled: true,
    encryptedSecret: "sealed",
    previousEncryptedSecret: null,
    previousSecretExpiresAt: null,
    createdAt: at,
    updatedAt: at,
    ...fields,
  };
}

export function rewardEventRowFor(fields: Partial<RewardEventRow> = {}): RewardEventRow {
  return {
    id: 1,
    eventId: "evt_1",
    xid: "1000",
    type: "reward.granted",
    gameId: "game-1",
    playerId: "p1",
    sourceKind: "offer",
    sourceId: "inst_1",
    offerId: "gift",
    variantId: null,
    rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 25 }],
    source: "client",
    actor: null,
    approvedBy: null,
    reason: null,
    occurredAt: new Date(Date.UTC(2026, 0, 1, 11)),
    ...fields,
  };
}
