/**
 * One load-generator process of bench/sse/run.ts (started by it over IPC, never by hand): opens the
 * players' event streams from its own source address, so that neither the 20,000 open files of a
 * process nor a source address's ephemeral ports cap the bench, and notes when each player's
 * real-time offer arrives.
 */
import net from "node:net";
import { SignJWT } from "jose";

export interface ConnectOrder {
  type: "connect";
  /** Source address of every socket of this process (127.0.0.x). */
  localAddress: string;
  /** Players of this process: index (playerId `bench-<index>`) and the port of the instance holding its stream. */
  players: Array<{ index: number; port: number }>;
  gameId: string;
  apiKey: string;
  /** Connections opening at once. */
  batch: number;
}

export type GeneratorReport =
  | { type: "connected"; opened: number; failed: number; firstError?: string }
  | { type: "progress"; received: number }
  | {
      type: "report";
      /** Streams still open, per instance port. */
      openByPort: Record<number, number>;
      /** [player index, received at, offer createdAt] (ms since the epoch, one machine's clock). */
      deliveries: Array<[number, number, number]>;
      /** Streams closed by the server before the end (e.g. idle close), per reason seen. */
      closedEarly: number;
    };

const SURFACED = "event: offer_surfaced\ndata: ";
const CONNECT_TIMEOUT_MS = 30_000;

interface Player {
  index: number;
  port: number;
  socket: net.Socket;
  buffer: string;
  open: boolean;
  receivedAt?: number;
  surfacedAt?: number;
}

const players: Player[] = [];
let received = 0;
let closedEarly = 0;
let reporting = false;

function send(message: GeneratorReport): void {
  process.send!(message);
}

function openStream(order: ConnectOrder, index: number, port: number, token: string): Promise<Player | string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress: order.localAddress });
    const player: Player = { index, port, socket, buffer: "", open: false };
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`stream of bench-${index} not open after ${CONNECT_TIMEOUT_MS} ms`);
    }, CONNECT_TIMEOUT_MS);
    socket.setEncoding("utf8");
    socket.on("error", (error) => {
      clearTimeout(timer);
      resolve(error.message);
    });
    socket.on("close", () => {
      if (player.open && !reporting) closedEarly += 1;
      player.open = false;
    });
    socket.on("data", (chunk: string) => {
      player.buffer += chunk;
      if (!player.open && player.buffer.includes(":connected")) {
        player.open = true;
        clearTimeout(timer);
        resolve(player);
      }
      const at = player.buffer.indexOf(SURFACED);
      if (at >= 0 && player.receivedAt === undefined) {
        const end = player.buffer.indexOf("\n\n", at);
        if (end < 0) return;
        player.receivedAt = Date.now();
        const data = JSON.parse(player.buffer.slice(at + SURFACED.length, end)) as { offer: { createdAt: string } };
        player.surfacedAt = Date.parse(data.offer.createdAt);
        player.buffer = "";
        received += 1;
      }
      if (player.buffer.length > 100_000) player.buffer = player.buffer.slice(-1_000);
    });
    socket.write(
      `GET /v1/sse/connect HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n`,
    );
  });
}

async function connect(order: ConnectOrder): Promise<void> {
  // The game server's job: sign each player's JWT, 30 minutes each (the bench ends well before).
  const key = new TextEncoder().encode(order.apiKey);
  const expires = Math.floor(Date.now() / 1000) + 1_800;
  let failed = 0;
  let firstError: string | undefined;
  for (let start = 0; start < order.players.length; start += order.batch) {
    const batch = order.players.slice(start, start + order.batch);
    const tokens = await Promise.all(
      batch.map((p) => new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuer(order.gameId).setSubject(`bench-${p.index}`).setExpirationTime(expires).sign(key)),
    );
    const results = await Promise.all(batch.map((p, i) => openStream(order, p.index, p.port, tokens[i]!)));
    for (const result of results) {
      if (typeof result === "string") {
        failed += 1;
        firstError ??= result;
      } else {
        players.push(result);
      }
    }
  }
  send({ type: "connected", opened: players.length, failed, firstError });
}

let lastSent = -1;
setInterval(() => {
  if (received !== lastSent) {
    lastSent = received;
    send({ type: "progress", received });
  }
}, 200).unref();

process.on("message", (message: ConnectOrder | { type: "report" }) => {
  if (message.type === "connect") {
    void connect(message);
  } else if (message.type === "report") {
    reporting = true;
    const openByPort: Record<number, number> = {};
    const deliveries: Array<[number, number, number]> = [];
    for (const p of players) {
      if (p.open && !p.socket.destroyed) openByPort[p.port] = (openByPort[p.port] ?? 0) + 1;
      if (p.receivedAt !== undefined) deliveries.push([p.index, p.receivedAt, p.surfacedAt!]);
    }
    send({ type: "report", openByPort, deliveries, closedEarly });
  }
});
// The bench ends this process when it is done (or dies): then drop every socket at once.
process.on("disconnect", () => process.exit(0));
