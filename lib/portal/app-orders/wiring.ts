/** The process-wide dependencies of app orders: the GitOps wiring (database, catalog, config repository). */
import { getGitOps } from "../gitops/service";
import type { AppOrderDeps } from "./service";

export async function getAppOrderDeps(): Promise<AppOrderDeps> {
  const g = await getGitOps();
  return { db: g.db, catalog: g.catalog, config: g.config };
}
