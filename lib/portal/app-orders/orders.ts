/**
 * App orders: placing and listing them. An engineer orders a component; the order opens a merge
 * request in the config repository (the GitOps ConfigRepository: branch portal/<name>/…) adding
 * components/<name>.yaml and, when it asks for any, resources/<name>.yaml. A lead then approves or
 * rejects it (order-decisions.ts); resource-requests.ts lists what the orders and the catalog ask for.
 */
import "server-only";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import { isUniqueViolation } from "../../db";
import type { PortalDatabase } from "../db/database";
import type { Catalog } from "../../catalog/catalog";
import { ScmError, type ScmMergeRequest } from "../../scm/types";
import { appOrders, type AppOrderRow } from "../db/schema/app-orders";
import { componentFilePath, type ConfigRepository, type FileWrite } from "../gitops/config-repo";
import { PortalError } from "../errors";
import { issuesOfFields } from "../../catalog/errors";
import { recordAudit, type AuditContext } from "../audit";
import { DEFAULT_API_VERSION, ORDER_STATUSES, recordYaml, resourcesOf, resourcesYaml, validateOrder, type AppOrder, type OrderStatus } from "./model";

type Db = PortalDatabase;

export interface AppOrderDeps {
  db: Db;
  catalog: Catalog;
  /** The config repository: its provider serves the orders' merge requests. */
  config: ConfigRepository;
}

/** Who acts, and the request id the audit entries carry. */
export interface Actor {
  id: string;
  name: string;
  email?: string;
  requestId: string;
}

/** The audit context of an actor's change. */
export function auditContextOfActor(actor: Actor): AuditContext {
  return { actor: { id: actor.id, name: actor.name }, requestId: actor.requestId };
}

export const RESOURCES_DIR = "resources";

export function resourcesFilePath(name: string): string {
  return `${RESOURCES_DIR}/${name}.yaml`;
}

export function orderOf(row: AppOrderRow): AppOrder {
  const component = row.component as { spec?: { environments?: string[]; dependencies?: Record<string, boolean> } };
  const spec = { environments: component.spec?.environments ?? [], dependencies: component.spec?.dependencies };
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    kind: row.kind,
    status: row.status as OrderStatus,
    requester: row.requester,
    requesterName: row.requesterName,
    component: row.component,
    resources: resourcesOf({ spec } as Parameters<typeof resourcesOf>[0]),
    mergeRequest:
      row.mergeRequestRepo && row.mergeRequestIid !== null
        ? { repository: row.mergeRequestRepo, iid: row.mergeRequestIid, webUrl: row.mergeRequestUrl, sourceBranch: row.sourceBranch, mergeCommitSha: row.mergeCommitSha }
        : null,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** An order's row; null for an id that is not a UUID or not there. */
export async function getRow(db: Db, id: string): Promise<AppOrderRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const [row] = await db.select().from(appOrders).where(eq(appOrders.id, id)).limit(1);
  return row ?? null;
}

export async function getOrder(deps: Pick<AppOrderDeps, "db">, id: string): Promise<AppOrder | null> {
  const row = await getRow(deps.db, id);
  return row ? orderOf(row) : null;
}

// ---- create ----

export async function createOrder(deps: AppOrderDeps, input: unknown, actor: Actor): Promise<AppOrder> {
  const apiVersion = deps.catalog.options().apiVersions[0] ?? DEFAULT_API_VERSION;
  const checked = validateOrder(input, apiVersion);
  if (!checked.ok) throw new PortalError("invalid-record", "the order is not valid", { issues: issuesOfFields(checked.issues) });
  const component = checked.component;
  const name = component.metadata.name;
  if (deps.catalog.get(name)) throw new PortalError("name-taken", `a component named "${name}" is already in the catalog`);
  if ((await deps.config.readText(componentFilePath(deps.catalog, name))) !== null) {
    throw new PortalError("name-taken", `the config repository already has a file for "${name}"`);
  }
  const [open] = await deps.db
    .select({ id: appOrders.id, requester: appOrders.requester })
    .from(appOrders)
    .where(and(eq(appOrders.name, name), inArray(appOrders.status, ["pending", "approving"])))
    .limit(1);
  if (open) throw new PortalError("name-taken", `"${name}" is already ordered (by ${open.requester}) and waiting for a lead`);

  let row: AppOrderRow;
  try {
    [row] = await deps.db
      .insert(appOrders)
      .values({ name, displayName: component.metadata.displayName, kind: component.spec.kind, component, status: "pending", requester: actor.id, requesterName: actor.name || actor.id })
      .returning();
  } catch (e) {
    if (isUniqueViolation(e)) throw new PortalError("name-taken", `"${name}" is already ordered and waiting for a lead`);
    throw e;
  }

  const files: FileWrite[] = [{ path: componentFilePath(deps.catalog, name), content: recordYaml(component, `${component.metadata.displayName}: ordered in the portal by ${actor.id} (order ${row.id}).`) }];
  const resources = resourcesYaml(component, { orderId: row.id, requester: actor.id });
  if (resources) files.push({ path: resourcesFilePath(name), content: resources });
  let mr: ScmMergeRequest;
  try {
    mr = await deps.config.propose({
      scope: name,
      files,
      title: `Order app ${name}`,
      description: [
        `App order ${row.id} by ${actor.id}.`,
        "",
        `Component: ${name} (${component.spec.kind}) — ${component.metadata.displayName}`,
        `Repository: ${component.spec.repo.path}`,
        `Environments: ${component.spec.environments.join(", ") || "none"}`,
        `Resources: ${resourcesOf(component).map((r) => `${r.resource}${r.environment ? `@${r.environment}` : ""}`).join(", ") || "none"}`,
        "",
        "Approve or reject it in the portal (App orders).",
      ].join("\n"),
      author: { id: actor.id, name: actor.name, email: actor.email },
    });
  } catch (e) {
    // No merge request, no order: the name is free again.
    await deps.db.delete(appOrders).where(eq(appOrders.id, row.id));
    if (e instanceof ScmError) throw new PortalError(e.code === "conflict" ? "conflict" : "source-control-failed", `the merge request could not be opened: ${e.message}`, { cause: e });
    throw e;
  }
  [row] = await deps.db
    .update(appOrders)
    .set({ mergeRequestRepo: mr.repository, mergeRequestIid: mr.iid, mergeRequestUrl: mr.webUrl, sourceBranch: mr.sourceBranch, updatedAt: new Date() })
    .where(eq(appOrders.id, row.id))
    .returning();
  const order = orderOf(row);
  // The merge request is the change (source control): audited right after it.
  await recordAudit(deps.db, auditContextOfActor(actor), {
    action: "order.create",
    targetType: "order",
    target: order.id,
    component: name,
    summary: `ordered ${name} (${component.spec.kind}); merge request !${mr.iid}`,
    before: null,
    after: { name, kind: component.spec.kind, repo: component.spec.repo.path, environments: component.spec.environments, resources: order.resources, mergeRequest: mr.iid },
  }, "after-remote-change");
  return order;
}

// ---- read ----

export async function listOrders(deps: Pick<AppOrderDeps, "db">, filter: { status?: OrderStatus; requester?: string; limit?: number } = {}): Promise<AppOrder[]> {
  const where = [];
  if (filter.status) where.push(eq(appOrders.status, filter.status));
  if (filter.requester) where.push(eq(appOrders.requester, filter.requester));
  const rows = await deps.db
    .select()
    .from(appOrders)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(appOrders.createdAt), desc(appOrders.id))
    .limit(Math.min(Math.max(filter.limit ?? 200, 1), 500));
  return rows.map(orderOf);
}

export async function pendingCount(deps: Pick<AppOrderDeps, "db">): Promise<number> {
  const [r] = await deps.db.select({ n: count() }).from(appOrders).where(eq(appOrders.status, "pending"));
  return Number(r?.n ?? 0);
}

/** The config repository's open merge requests that belong to orders waiting for a decision. */
export async function openOrderMergeRequests(deps: AppOrderDeps): Promise<Array<{ order: AppOrder; mergeRequest: ScmMergeRequest | null }>> {
  const orders = await listOrders(deps, {}).then((all) => all.filter((o) => o.status === "pending" || o.status === "approving"));
  const open = await deps.config.target.provider.listMergeRequests(deps.config.target.repo, { state: "opened" });
  const byIid = new Map(open.map((m) => [`${m.repository}!${m.iid}`, m]));
  return orders.map((order) => ({ order, mergeRequest: order.mergeRequest ? (byIid.get(`${order.mergeRequest.repository}!${order.mergeRequest.iid}`) ?? null) : null }));
}

// ---- decide ----
export { ORDER_STATUSES };
