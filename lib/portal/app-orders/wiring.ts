/**
 * The dependencies of app orders in this process's services (lib/portal/services.ts): the GitOps
 * wiring (database, catalog, config repository), after the approvals a previous process left in
 * approving are finished (recoverInterruptedApprovals; retried on the next call when that fails).
 */
import { getPortalServices } from "../services";
import type { AppOrderDeps } from "./service";

export const getAppOrderDeps = (): Promise<AppOrderDeps> => getPortalServices().appOrders();
