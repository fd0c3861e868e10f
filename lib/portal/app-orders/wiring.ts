/**
 * The process-wide dependencies of app orders: the GitOps wiring (database, catalog, config repository).
 * Before the first order is read or decided in a process, the approvals a previous process left in
 * approving are finished (recoverInterruptedApprovals); if that fails (database or provider away), the
 * next call tries again.
 */
import { getGitOps } from "../gitops/service";
import { recoverInterruptedApprovals, type AppOrderDeps } from "./service";

const globalForOrders = globalThis as unknown as { __portalAppOrderDeps?: Promise<AppOrderDeps>; __portalApprovalsRecovered?: Promise<void> };

async function build(): Promise<AppOrderDeps> {
  const g = await getGitOps();
  return { db: g.db, catalog: g.catalog, config: g.config };
}

export async function getAppOrderDeps(): Promise<AppOrderDeps> {
  if (!globalForOrders.__portalAppOrderDeps) {
    const opening = build();
    opening.catch(() => {
      if (globalForOrders.__portalAppOrderDeps === opening) delete globalForOrders.__portalAppOrderDeps;
    });
    globalForOrders.__portalAppOrderDeps = opening;
  }
  const deps = await globalForOrders.__portalAppOrderDeps;
  if (!globalForOrders.__portalApprovalsRecovered) {
    const recovering: Promise<void> = recoverInterruptedApprovals(deps).then(
      () => undefined,
      (e: unknown) => {
        console.error(`[portal] interrupted approvals could not be recovered yet: ${(e as Error).message}`);
        if (globalForOrders.__portalApprovalsRecovered === recovering) delete globalForOrders.__portalApprovalsRecovered;
      },
    );
    globalForOrders.__portalApprovalsRecovered = recovering;
  }
  await globalForOrders.__portalApprovalsRecovered;
  return deps;
}
