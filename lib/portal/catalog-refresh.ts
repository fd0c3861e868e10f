/**
 * Cache refresh (operators): the whole catalog re-read, after a pull of the config repository when it has
 * a remote, or one record's file. Each refresh is audited right after it, with what it read.
 */
import "server-only";
import type { Catalog, RefreshOneResult, RefreshSummary } from "../catalog/catalog";
import type { PortalDatabase } from "./db/database";
import { recordAudit, type AuditContext } from "./audit";

export interface CatalogRefreshDeps {
  catalog: Catalog;
  /** Opens the portal database for the audit entry (a failed open is logged, the refresh stands). */
  db: () => Promise<PortalDatabase>;
}

/** Pulls (when the config repository has a remote) and re-reads every record. */
export async function refreshCatalog(deps: CatalogRefreshDeps, by: AuditContext): Promise<RefreshSummary> {
  const summary = await deps.catalog.refresh({ pull: true });
  await recordAudit(
    deps.db,
    by,
    {
      action: "cache.refresh",
      targetType: "catalog",
      target: "catalog",
      component: null,
      summary: `refreshed the catalog: ${summary.components} components, ${summary.errors.length} errors`,
      after: { components: summary.components, errors: summary.errors.length, pull: summary.pull ?? null },
    },
    "after-remote-change",
  );
  return summary;
}

/** Re-reads one record's file; null when the catalog has no such component (nothing is audited then). */
export async function refreshComponent(deps: CatalogRefreshDeps, by: AuditContext, name: string): Promise<RefreshOneResult | null> {
  const one = await deps.catalog.refreshOne(name);
  if (!one) return null;
  await recordAudit(
    deps.db,
    by,
    {
      action: "cache.refresh",
      targetType: "component",
      target: name,
      component: name,
      summary: `refreshed ${name}`,
      after: { components: deps.catalog.size, errors: deps.catalog.errors.length, pull: null },
    },
    "after-remote-change",
  );
  return one;
}
