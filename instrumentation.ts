// Next.js calls register() once when a portal server starts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  // First: a log line written after the output's reader is gone must not turn into a loop of errors.
  const { dropFailedOutput } = await import("@/lib/portal/broken-output");
  dropFailedOutput();
  // Before anything is served: the portal's settings, parsed once. A bad one (or a rule between them broken, such as
  // the development sign-in on a non-loopback address) stops the portal here with the reason, not at a request.
  const [{ getPortalEnv }, { EnvError }] = await Promise.all([import("@/lib/env/portal"), import("@/lib/env/parse")]);
  let env;
  try {
    env = getPortalEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(`[portal] ${error.message}`);
    process.exit(1);
  }
  // Tracing first (when OTEL_EXPORTER_OTLP_ENDPOINT is set), so what loads after is traced.
  const { startTracing } = await import("@/lib/tracing");
  await startTracing("portal");
  const { observeRequests, serveMetrics } = await import("@/lib/portal/metrics");
  observeRequests();
  const metricsPort = env.PORTAL_METRICS_PORT;
  if (metricsPort) await serveMetrics(metricsPort);
  const [{ portalStartup }, { getPortalServices }] = await Promise.all([import("@/lib/portal/startup"), import("@/lib/portal/services")]);
  await portalStartup(getPortalServices());
}
