// Next.js calls register() once when a portal server starts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const { portalStartup } = await import("@/lib/portal/startup");
  await portalStartup();
}
