// Next.js calls register() once when a portal server starts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // First: a log line written after the output's reader is gone must not turn into a loop of errors.
  const { dropFailedOutput } = await import("@/lib/portal/broken-output");
  dropFailedOutput();
  // Before anything is served: the development sign-in on a non-loopback address is refused.
  const [{ getEnv }, { devSignInListenProblem }] = await Promise.all([import("@/lib/env"), import("@/lib/portal/listen-address")]);
  const listenProblem = devSignInListenProblem(getEnv());
  if (listenProblem) {
    console.error(`[portal] ${listenProblem}`);
    process.exit(1);
  }
  // Tracing first (when OTEL_EXPORTER_OTLP_ENDPOINT is set), so what loads after is traced.
  const { startTracing } = await import("@/lib/tracing");
  await startTracing("portal");
  const { observeRequests, serveMetrics } = await import("@/lib/portal/metrics");
  observeRequests();
  const metricsPort = getEnv().PORTAL_METRICS_PORT;
  if (metricsPort) await serveMetrics(metricsPort);
  const [{ portalStartup }, { getPortalServices }] = await Promise.all([import("@/lib/portal/startup"), import("@/lib/portal/services")]);
  await portalStartup(getPortalServices());
}
