/**
 * OpenTelemetry traces of both services, off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then the
 * Node SDK exports spans over OTLP (the standard OTEL_* variables choose the protocol, sampler and
 * so on; service.name is OTEL_SERVICE_NAME or the service's default) with HTTP server and client
 * spans (node:http, fetch), PostgreSQL and Redis spans, and W3C traceparent propagation, so a portal
 * request and the offers service's work for it show as one trace. Probes and scrapes make no span.
 *
 * The SDK is imported only when tracing is on: with it off nothing is loaded, patched or exported.
 * It must start before the modules it patches load (pg, http): the offers service starts it from a
 * preload (node --import, lib/offers/tracing.ts), the portal from instrumentation.ts.
 */
import { trace } from "@opentelemetry/api";

const QUIET_PATHS = /^\/(health|ready|metrics)(\?|$)/;

export interface Tracing {
  /** Exports what is buffered and stops (at shutdown). */
  shutdown(): Promise<void>;
}

export async function startTracing(defaultServiceName: string, env: Record<string, string | undefined> = process.env): Promise<Tracing | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return undefined;
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { UndiciInstrumentation }, { IORedisInstrumentation }] = await Promise.all([
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-pg"),
    import("@opentelemetry/instrumentation-undici"),
    import("@opentelemetry/instrumentation-ioredis"),
  ]);
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || defaultServiceName,
    // Traces only: metrics are scraped from /metrics, logs go to stdout.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => QUIET_PATHS.test(request.url ?? "") }),
      // Only queries inside a traced request: the background pollers (webhook worker, surfacing jobs) would make a trace every 200 ms.
      new PgInstrumentation({ requireParentSpan: true }),
      new UndiciInstrumentation(),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}

/** Exports the spans still buffered (before a process exits); nothing to do with tracing off. */
export async function flushTraces(): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
  await provider.getDelegate?.().forceFlush?.();
}
