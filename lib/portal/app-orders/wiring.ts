/**
 * The process-wide dependencies of app orders: the GitOps wiring (database, catalog, config repository).
 * The first build in a process finishes the approvals a previous process left in approving
 * (recoverInterruptedApprovals), before any order is read or decided.
 */
import { getGitOps } from "../gitops/service";
import { recoverInterruptedApprovals, type AppOrderDeps } from "./service";

const globalForOrders = globalThis as unknown as { __portalAppOrderDeps?: Promise<AppOrderDeps> };

async function build(): Promise<AppOrderDeps> {
  const g = await getGitOps();
  const deps: AppOrderDeps = { db: g.db, catalog: g.catalog, config: g.config };
  try {
    await recoverInterruptedApprovals(deps);
  } catch (e) {
    // The database or the provider is away: orders stay in approving and the next start (or the
    // takeover of a stale approval) settles them; serving orders does not wait for that.
    console.error(`[portal] interrupted approvals could not be recovered: ${(e as Error).message}`);
  }
  return deps;
}

export function getAppOrderDeps(): Promise<AppOrderDeps> {
  if (!globalForOrders.__portalAppOrderDeps) {
    const opening = build();
    opening.catch(() => {
      if (globalForOrders.__portalAppOrderDeps === opening) delete globalForOrders.__portalAppOrderDeps;
    });
    globalForOrders.__portalAppOrderDeps = opening;
  }
  return globalForOrders.__portalAppOrderDeps;
}
