/**
 * Event-stream benchmark: N player connections (default 10,000) on one offers instance; one
 * real-time offer surfaced per player, in bursts; measures delivery latency from surfacing to
 * receipt (p50, p99) and the server's memory per connection.
 *
 *   npm run build:offers && npx tsx bench/sse/run.ts [connections]
 *   BENCH_DATABASE_URL=postgres://… to run the service on PostgreSQL instead of PGlite
 *   (memory per connection is only meaningful there: PGlite's WASM heap grows and shrinks in-process);
 *   BENCH_CONCURRENCY (default 10): assignments in flight during a burst.
 *
 * Targets: 10,000 held, < 30 KB per connection, p99 < 100 ms. Loopback only; stops by itself.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { percentile, verdict as mark, waitForHealthy as waitFor } from "../lib/common";

// Raise the open-file limit: re-run this script under a shell that raised it.
if (!process.env.BENCH_SSE_CHILD) {
  const args = process.argv.slice(2).map((a) => JSON.stringify(a)).join(" ");
  const result = spawnSync("bash", ["-c", `ulimit -n 65536 2>/dev/null || ulimit -n $(ulimit -Hn); exec npx tsx bench/sse/run.ts ${args}`], {
    stdio: "inherit",
    env: { ...process.env, BENCH_SSE_CHILD: "1" },
  });
  process.exit(result.status ?? 1);
}

const CONNECTIONS = Number(process.argv[2] ?? process.env.BENCH_CONNECTIONS ?? 10_000);
const BURST = 500;
const PORT = 4600 + Math.floor(Math.random() * 300);
const GAME = "demo-game";
const API_KEY = "demo-api-key";
const CLIENT_ID = "demo-client";
const base = `http://127.0.0.1:${PORT}`;

function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]);
}

async function api(method: string, url: string, body: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { "content-type": "application/json", "x-api-key": API_KEY, "x-client-id": CLIENT_ID },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

interface Player {
  id: string;
  socket: net.Socket;
  buffer: string;
  open: boolean;
  receivedAt?: number;
  /** The offer's createdAt: when the assigning transaction surfaced it. */
  surfacedAt?: number;
  /** When the game server (this script) sent the assignment. */
  requestedAt?: number;
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-sse-"));
  let server: ChildProcess | undefined;
  const players: Player[] = [];
  const cleanup = () => {
    for (const p of players) p.socket.destroy();
    server?.kill("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  };
  const watchdog = setTimeout(() => {
    console.error("bench took over 10 minutes; stopping");
    cleanup();
    process.exit(1);
  }, 600_000);
  try {
    server = spawn("node", ["dist/offers/main.mjs"], {
      stdio: ["ignore", "ignore", "inherit"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        LOG_LEVEL: "warn",
        DATA_DIR: dataDir,
        OFFERS_PORT: String(PORT),
        OFFERS_DEMO_DATA: "on",
        OFFERS_DATABASE_URL: process.env.BENCH_DATABASE_URL ?? "",
        REDIS_URL: process.env.BENCH_REDIS_URL ?? "",
        // One demo game driven far past any real game's budgets: unlimited unless set (to measure the limiter).
        OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE ?? "0",
        OFFERS_RATE_LIMIT_SERVER_PER_MINUTE: process.env.OFFERS_RATE_LIMIT_SERVER_PER_MINUTE ?? "0",
      },
    });
    await waitFor(`${base}/health`);
    await api("PUT", "/v1/offers/definitions/bench-live", {
      name: "Flash deal",
      description: "Surfaced in real time",
      rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 100 }],
      realTime: true,
      durationSeconds: 3600,
    });

    // Sign the players' JWTs up front (the game server's job), 15 minutes each.
    const key = new TextEncoder().encode(API_KEY);
    const now = Math.floor(Date.now() / 1000);
    const tokens = await Promise.all(
      Array.from({ length: CONNECTIONS }, (_, i) =>
        new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setIssuer(GAME).setSubject(`bench-${i}`).setExpirationTime(now + 900).sign(key),
      ),
    );

    await new Promise((r) => setTimeout(r, 2_000));
    const rssBefore = rssKb(server.pid!);

    // Connect in batches; each player's socket reads the stream and notes when its offer arrives.
    const connectStart = Date.now();
    for (let start = 0; start < CONNECTIONS; start += BURST) {
      const batch: Promise<void>[] = [];
      for (let i = start; i < Math.min(CONNECTIONS, start + BURST); i++) {
        batch.push(
          new Promise<void>((resolve, reject) => {
            const socket = net.connect(PORT, "127.0.0.1");
            const player: Player = { id: `bench-${i}`, socket, buffer: "", open: false };
            players.push(player);
            socket.setEncoding("utf8");
            socket.on("error", reject);
            socket.on("data", (chunk: string) => {
              player.buffer += chunk;
              if (!player.open && player.buffer.includes(":connected")) {
                player.open = true;
                resolve();
              }
              const at = player.buffer.indexOf("event: offer_surfaced\ndata: ");
              if (at >= 0 && player.receivedAt === undefined) {
                const end = player.buffer.indexOf("\n\n", at);
                if (end < 0) return;
                player.receivedAt = Date.now();
                const data = JSON.parse(player.buffer.slice(at + "event: offer_surfaced\ndata: ".length, end)) as { offer: { createdAt: string } };
                player.surfacedAt = Date.parse(data.offer.createdAt);
                player.buffer = "";
              }
              if (player.buffer.length > 100_000) player.buffer = player.buffer.slice(-1_000);
            });
            socket.write(
              `GET /v1/sse/connect HTTP/1.1\r\nHost: 127.0.0.1:${PORT}\r\nAuthorization: Bearer ${tokens[i]}\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n`,
            );
          }),
        );
      }
      await Promise.all(batch);
    }
    const connectSeconds = (Date.now() - connectStart) / 1000;
    await new Promise((r) => setTimeout(r, 2_000));
    const rssAfter = rssKb(server.pid!);
    const held = players.filter((p) => p.open && !p.socket.destroyed).length;

    // Surface one real-time offer per player, in bursts of concurrent assignments.
    const surfaceStart = Date.now();
    const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 10);
    const byId = new Map(players.map((p) => [p.id, p]));
    for (let start = 0; start < CONNECTIONS; start += BURST) {
      const ids = players.slice(start, start + BURST).map((p) => p.id);
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < ids.length) {
            const playerId = ids[next++]!;
            byId.get(playerId)!.requestedAt = Date.now();
            await api("POST", "/v1/player/offers/assign", { playerId, offerId: "bench-live" });
          }
        }),
      );
    }
    const surfaceSeconds = (Date.now() - surfaceStart) / 1000;
    const deadline = Date.now() + 30_000;
    while (players.some((p) => p.receivedAt === undefined) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));

    const delivered = players.filter((p) => p.receivedAt !== undefined);
    const latencies = delivered.map((p) => p.receivedAt! - p.surfacedAt!).sort((a, b) => a - b);
    const endToEnd = delivered.map((p) => p.receivedAt! - p.requestedAt!).sort((a, b) => a - b);
    const perConnectionKb = (rssAfter - rssBefore) / CONNECTIONS;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log(`
event stream benchmark (${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, ${process.env.BENCH_REDIS_URL ? "Redis bus" : "in-process bus"})
  connections held        ${held} / ${CONNECTIONS} (connected in ${connectSeconds.toFixed(1)} s)   target ${CONNECTIONS} held  ${mark(held === CONNECTIONS)}
  memory per connection   ${perConnectionKb.toFixed(1)} KB (server RSS ${(rssBefore / 1024).toFixed(0)} → ${(rssAfter / 1024).toFixed(0)} MB)   target < 30 KB  ${mark(perConnectionKb < 30)}
  offers delivered        ${latencies.length} / ${CONNECTIONS} (bursts of ${BURST}, ${CONCURRENCY} assignments in flight; ${(CONNECTIONS / surfaceSeconds).toFixed(0)}/s)
  delivery latency p50    ${p50} ms   (surfacing transaction → receipt)
  delivery latency p99    ${p99} ms   target < 100 ms  ${mark(p99 < 100)}
  assign request → receipt  p50 ${percentile(endToEnd, 50)} ms, p99 ${percentile(endToEnd, 99)} ms (includes the HTTP call and the transaction)
`);
  } finally {
    clearTimeout(watchdog);
    cleanup();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
