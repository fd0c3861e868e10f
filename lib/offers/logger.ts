/**
 * The service's pino logger. Lines written inside a request carry its `reqId` (Fastify's child
 * logger) and, when tracing is on, the active span's `trace_id` and `span_id`, so a log line leads
 * to its trace and back. Readable lines in development; JSON lines (one per event, for log
 * shippers) otherwise.
 */
import { trace } from "@opentelemetry/api";
import { pino, type Logger } from "pino";
import type { OffersEnv } from "../env/offers";

/** The active span's ids (none without tracing: the API's no-op context has no span). */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export function createOffersLogger(env: Pick<OffersEnv, "LOG_LEVEL" | "NODE_ENV">, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { level: env.LOG_LEVEL, mixin: traceFields };
  if (destination) return pino(options, destination);
  return pino({
    ...options,
    ...(env.NODE_ENV === "development" ? { transport: { target: "pino-pretty", options: { colorize: true, ignore: "pid,hostname" } } } : {}),
  });
}
