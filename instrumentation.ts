// Next.js calls register() once when a portal server starts.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs" || process.env.NEXT_PHASE === "phase-production-build") return;
  const [{ portalStartup }, { getPortalServices }] = await Promise.all([import("@/lib/portal/startup"), import("@/lib/portal/services")]);
  await portalStartup(getPortalServices());
}
