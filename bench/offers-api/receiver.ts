/**
 * The webhook receiver of the offers benchmark, in a process of its own (so the load generator does
 * not delay its clock readings): answers 200 at once and records, per event, when the claim was
 * granted (the event's grantedAt) and when the event arrived. GET / answers them, GET /count how
 * many (cheap to poll while its CPU is measured).
 */
import http from "node:http";

const received: Array<{ grantedAt: number; at: number }> = [];
const seen = new Set<string>();
let duplicates = 0;
/** RECEIVER_ANSWER_AFTER_MS: how long it takes to answer (a receiver doing some work; the kill bench keeps deliveries in flight). */
const ANSWER_AFTER_MS = Number(process.env.RECEIVER_ANSWER_AFTER_MS ?? 0);

http
  .createServer((req, res) => {
    if (req.method === "GET" && req.url === "/count") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received: received.length }));
      return;
    }
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received, duplicates }));
      return;
    }
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const at = Date.now();
      if (ANSWER_AFTER_MS > 0) setTimeout(() => res.writeHead(200).end(), ANSWER_AFTER_MS);
      else res.writeHead(200).end();
      const id = String(req.headers["webhook-id"]);
      if (seen.has(id)) duplicates += 1;
      else {
        seen.add(id);
        const event = JSON.parse(body) as { data?: { grantedAt?: string } };
        if (event.data?.grantedAt) received.push({ grantedAt: Date.parse(event.data.grantedAt), at });
      }
    });
  })
  .listen(Number(process.env.RECEIVER_PORT), "127.0.0.1");
