/**
 * Fastify's per-request log lines ("incoming request", "request completed"), except for probes and
 * scrapes: a load balancer polls /health every few seconds and a scraper reads /metrics, so at info
 * they would drown the log (and the dev log prints each line as a block). They log at debug, and
 * a probe that answers 5xx still logs at warn.
 */
import { LogController, type FastifyReply, type FastifyRequest } from "fastify";

const QUIET_ROUTES = new Set(["/health", "/ready", "/metrics"]);

const isQuiet = (request: FastifyRequest) => QUIET_ROUTES.has(request.routeOptions.url ?? "");

export class OffersLogController extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    if (!isQuiet(request)) return super.incomingRequest(request, reply);
    request.log.debug({ req: request }, "incoming request");
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error || !isQuiet(request)) return super.requestCompleted(error, request, reply);
    const level = reply.statusCode >= 500 ? "warn" : "debug";
    reply.log[level]({ res: reply, responseTime: reply.elapsedTime }, "request completed");
  }
}
