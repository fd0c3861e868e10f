/**
 * The comparison of bench/sse/run.ts's memory per stream (`BENCH_ONLY=bare`): a bare node:http server
 * that answers every request with the stream's head and `:connected`, and holds the response. Started by the bench
 * with --expose-gc and bench/sse/memory-probe.cjs; the port comes in OFFERS_PORT.
 */
import http from "node:http";

const server = http.createServer((request, response) => {
  if (request.url === "/health") {
    response.end("ok");
    return;
  }
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform", Connection: "keep-alive", "X-Accel-Buffering": "no" });
  response.write(":connected\n\n");
});
server.listen(Number(process.env.OFFERS_PORT), "127.0.0.1");
