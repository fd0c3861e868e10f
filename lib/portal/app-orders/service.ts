/**
 * App orders (issue 7). An engineer orders a component; the order opens a merge request in the config
 * repository (the GitOps ConfigRepository: branch portal/<name>/…) adding components/<name>.yaml and,
 * when it asks for any, resources/<name>.yaml. A lead approves (the merge request is merged, the catalog
 * refreshed) or rejects it (closed, with a reason the requester sees).
 *
 * Decisions are exactly-once: the order's status moves by conditional updates
 * (pending → approving → approved; pending → rejected). Of two leads deciding at once one wins and the
 * other is refused order-decided. Every change writes an audit entry.
 *
 * An approval settles from its merge request, never by merging blindly: merged already → approved
 * with that merge commit (no second merge); closed → rejected; open → merged once (merges are
 * idempotent at the git level too: a source already in the target makes no commit). An approval that
 * was interrupted (the process died with the order in approving) is finished when the portal starts
 * (recoverInterruptedApprovals: the lead had decided, so the merge is completed exactly once, or the
 * order goes back to pending when it cannot be merged); one left in approving for more than
 * STALE_APPROVING_MS by a live process may be taken over by the next approval, under the same rule.
 */
import { and, count, desc, eq, inArray, lt, or } from "drizzle-orm";
import { isUniqueViolation } from "../../db";
import type { PortalDatabase } from "../db/database";
import type { Catalog } from "../../catalog/catalog";
import { ScmError, type ScmMergeRequest } from "../../scm/types";
import { appOrders, type AppOrderRow } from "../db/schema/app-orders";
import { componentFilePath, type ConfigRepository, type FileWrite } from "../gitops/config-repo";
import { PortalError } from "../errors";
import { issuesOfFields } from "../../catalog/errors";
import { writeAudit } from "../audit";
import {
  DEFAULT_API_VERSION,
  ORDER_STATUSES,
  RESOURCE_STATUSES,
  recordYaml,
  resourceFilterSchema,
  resourcesOf,
  resourcesYaml,
  validateOrder,
  type AppOrder,
  type OrderStatus,
  type ResourceFilter,
  type ResourceRequest,
  type ResourceRequestList,
} from "./model";

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

export const STALE_APPROVING_MS = 10 * 60 * 1000;
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

async function getRow(db: Db, id: string): Promise<AppOrderRow | null> {
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
  await writeAudit(deps.db, {
    actor: actor,
    requestId: actor.requestId,
    action: "order.create",
    targetType: "order",
    target: order.id,
    component: name,
    summary: `ordered ${name} (${component.spec.kind}); merge request !${mr.iid}`,
    before: null,
    after: { name, kind: component.spec.kind, repo: component.spec.repo.path, environments: component.spec.environments, resources: order.resources, mergeRequest: mr.iid },
  });
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

function settledMessage(row: AppOrderRow): string {
  switch (row.status) {
    case "approved":
      return `this order was already approved by ${row.decidedBy ?? "a lead"}`;
    case "rejected":
      return `this order was rejected by ${row.decidedBy ?? "a lead"}${row.reason ? `: ${row.reason}` : ""}`;
    case "approving":
      return `this order is being approved by ${row.decidedBy ?? "another lead"}`;
    default:
      return `this order is ${row.status}`;
  }
}

async function requireRow(db: Db, id: string): Promise<AppOrderRow> {
  const row = await getRow(db, id);
  if (!row) throw new PortalError("not-found", `no app order ${id}`);
  return row;
}

export interface ApproveResult {
  order: AppOrder;
  /** True once the catalog shows the component. */
  inCatalog: boolean;
}

/** What settling an approval from its merge request came to. */
type Settled = { outcome: "approved"; row: AppOrderRow; mergeCommit: string | null; won: boolean };

/**
 * Finishes an order in approving from the state of its merge request (the caller claimed it as
 * `decider`): merged → approved (no merge); open → merged once, then approved; closed → rejected;
 * a merge that cannot happen → back to pending. Throws PortalError for the last two.
 */
async function settleApproval(deps: AppOrderDeps, claimed: AppOrderRow, decider: string | null): Promise<Settled> {
  const { provider, repo } = deps.config.target;
  const id = claimed.id;
  const mrRepo = claimed.mergeRequestRepo ?? repo;
  const iid = claimed.mergeRequestIid;
  const mine = decider === null ? eq(appOrders.status, "approving") : and(eq(appOrders.status, "approving"), eq(appOrders.decidedBy, decider));
  const giveBack = () =>
    deps.db
      .update(appOrders)
      .set({ status: "pending", decidedBy: null, decidedAt: null, updatedAt: new Date() })
      .where(and(eq(appOrders.id, id), mine));
  if (iid === null) {
    await giveBack();
    throw new PortalError("not-mergeable", "this order has no merge request to merge");
  }
  let mr: ScmMergeRequest | null;
  try {
    mr = await provider.getMergeRequest(mrRepo, iid);
    if (mr?.state === "opened") mr = await provider.mergeMergeRequest(mrRepo, iid);
  } catch (e) {
    // Merged or closed meanwhile (elsewhere, or by a merge that did happen): the order follows its merge request.
    mr = await provider.getMergeRequest(mrRepo, iid).catch(() => null);
    if (mr?.state !== "merged" && mr?.state !== "closed") {
      await giveBack();
      if (e instanceof PortalError) throw e;
      if (e instanceof ScmError) throw new PortalError(e.code === "not_mergeable" || e.code === "conflict" ? "not-mergeable" : "source-control-failed", `the merge request could not be merged: ${e.message}`, { cause: e });
      throw e;
    }
  }
  if (!mr) {
    await giveBack();
    throw new PortalError("not-mergeable", `merge request !${iid} no longer exists; the order waits for a lead again`);
  }
  if (mr.state === "closed") {
    await deps.db
      .update(appOrders)
      .set({ status: "rejected", reason: "the merge request was closed outside the portal", updatedAt: new Date() })
      .where(and(eq(appOrders.id, id), eq(appOrders.status, "approving")));
    throw new PortalError("order-decided", "the merge request was closed outside the portal; the order is rejected");
  }
  const mergeCommit = mr.mergeCommitSha;
  const [done] = await deps.db
    .update(appOrders)
    .set({ status: "approved", mergeCommitSha: mergeCommit, decidedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(appOrders.id, id), eq(appOrders.status, "approving")))
    .returning();
  return { outcome: "approved", row: done ?? (await requireRow(deps.db, id)), mergeCommit, won: Boolean(done) };
}

async function showInCatalog(deps: AppOrderDeps, name: string): Promise<boolean> {
  // The local provider refreshes the catalog after a merge; a remote one needs a pull.
  if (!deps.catalog.get(name)) await deps.catalog.refresh({ pull: true }).catch(() => undefined);
  return Boolean(deps.catalog.get(name));
}

export async function approveOrder(deps: AppOrderDeps, id: string, actor: Actor): Promise<ApproveResult> {
  const row = await requireRow(deps.db, id);
  if (row.requester === actor.id) {
    throw new PortalError("own-order", "you cannot approve your own order: another lead has to approve it");
  }
  if (row.status !== "pending" && row.status !== "approving") throw new PortalError("order-decided", settledMessage(row));
  const staleBefore = new Date(Date.now() - STALE_APPROVING_MS);
  const claimedAt = new Date();
  const [claimed] = await deps.db
    .update(appOrders)
    .set({ status: "approving", decidedBy: actor.id, decidedAt: claimedAt, updatedAt: claimedAt })
    .where(and(eq(appOrders.id, id), or(eq(appOrders.status, "pending"), and(eq(appOrders.status, "approving"), lt(appOrders.updatedAt, staleBefore)))))
    .returning();
  if (!claimed) throw new PortalError("order-decided", settledMessage((await getRow(deps.db, id)) ?? row));

  const settled = await settleApproval(deps, claimed, actor.id);
  const final = settled.row;
  const inCatalog = await showInCatalog(deps, final.name);
  const order = orderOf(final);
  if (settled.won) {
    await writeAudit(deps.db, {
      actor,
      requestId: actor.requestId,
      action: "order.approve",
      targetType: "order",
      target: id,
      component: final.name,
      summary: `approved the order of ${final.name} (requested by ${final.requester}); merged !${claimed.mergeRequestIid ?? "?"}`,
      before: { status: "pending" },
      after: { status: order.status, mergeCommit: settled.mergeCommit },
    });
  }
  return { order, inCatalog };
}

export interface RecoveredApproval {
  id: string;
  name: string;
  /** approved: the merge had happened or was completed now; pending: it could not be merged; rejected: its merge request was closed. */
  status: OrderStatus;
  mergeCommit: string | null;
  message?: string;
}

/**
 * Finishes every approval interrupted by the end of a process (orders left in approving), once at
 * start-up: an order whose merge request is merged becomes approved with that merge commit (no
 * second merge); one still open is merged exactly once (the lead had decided) and approved; one that
 * cannot be merged goes back to pending, one whose merge request was closed is rejected. Each
 * approval completed here is audited in the name of the lead who decided it.
 */
export async function recoverInterruptedApprovals(deps: AppOrderDeps): Promise<RecoveredApproval[]> {
  const rows = await deps.db.select().from(appOrders).where(eq(appOrders.status, "approving"));
  const out: RecoveredApproval[] = [];
  for (const row of rows) {
    try {
      const settled = await settleApproval(deps, row, null);
      if (settled.won) {
        const lead = row.decidedBy ?? "portal";
        await writeAudit(deps.db, {
          actor: { id: lead, name: lead },
          requestId: `startup-recovery-${row.id}`,
          action: "order.approve",
          targetType: "order",
          target: row.id,
          component: row.name,
          summary: `approval of ${row.name} by ${lead} completed at start-up after an interruption; merged !${row.mergeRequestIid ?? "?"}`,
          before: { status: "approving" },
          after: { status: "approved", mergeCommit: settled.mergeCommit },
        });
      }
      out.push({ id: row.id, name: row.name, status: settled.row.status as OrderStatus, mergeCommit: settled.mergeCommit });
    } catch (e) {
      const now = await getRow(deps.db, row.id);
      out.push({ id: row.id, name: row.name, status: (now?.status ?? "pending") as OrderStatus, mergeCommit: null, message: (e as Error).message });
    }
  }
  if (out.some((o) => o.status === "approved")) await deps.catalog.refresh({ pull: true }).catch(() => undefined);
  for (const o of out) console.warn(`[portal] interrupted approval of ${o.name} (order ${o.id}): now ${o.status}${o.message ? ` (${o.message})` : ""}`);
  return out;
}

export async function rejectOrder(deps: AppOrderDeps, id: string, reason: string, actor: Actor): Promise<AppOrder> {
  const why = reason.trim();
  if (!why) throw new PortalError("invalid-request", "a reason is required: tell the requester why", { issues: [{ path: ["reason"], message: "a reason is required" }] });
  const row = await requireRow(deps.db, id);
  if (row.status !== "pending") throw new PortalError("order-decided", settledMessage(row));
  const now = new Date();
  const [claimed] = await deps.db
    .update(appOrders)
    .set({ status: "rejected", reason: why, decidedBy: actor.id, decidedAt: now, updatedAt: now })
    .where(and(eq(appOrders.id, id), eq(appOrders.status, "pending")))
    .returning();
  if (!claimed) throw new PortalError("order-decided", settledMessage((await getRow(deps.db, id)) ?? row));
  const { provider, repo } = deps.config.target;
  if (claimed.mergeRequestIid !== null) {
    const mrRepo = claimed.mergeRequestRepo ?? repo;
    try {
      await provider.closeMergeRequest(mrRepo, claimed.mergeRequestIid);
    } catch (e) {
      const mr = await provider.getMergeRequest(mrRepo, claimed.mergeRequestIid).catch(() => null);
      if (mr?.state !== "closed") {
        // Could not close it (and it is not closed): the order waits again.
        await deps.db
          .update(appOrders)
          .set({ status: mr?.state === "merged" ? "approved" : "pending", reason: null, decidedBy: mr?.state === "merged" ? claimed.decidedBy : null, updatedAt: new Date() })
          .where(and(eq(appOrders.id, id), eq(appOrders.status, "rejected")));
        if (mr?.state === "merged") throw new PortalError("order-decided", "the merge request was already merged outside the portal; the order counts as approved");
        throw new PortalError("source-control-failed", `the merge request could not be closed: ${(e as Error).message}`, { cause: e });
      }
    }
  }
  const order = orderOf(claimed);
  await writeAudit(deps.db, {
    actor,
    requestId: actor.requestId,
    action: "order.reject",
    targetType: "order",
    target: id,
    component: claimed.name,
    summary: `rejected the order of ${claimed.name} (requested by ${claimed.requester}): ${why}`,
    before: { status: "pending" },
    after: { status: "rejected", reason: why },
  });
  return order;
}

// ---- resource requests ----

export async function listResourceRequests(deps: Pick<AppOrderDeps, "db" | "catalog">, rawFilter: ResourceFilter = {}): Promise<ResourceRequestList> {
  const filter = resourceFilterSchema.parse(rawFilter);
  const orders = (await deps.db.select().from(appOrders).orderBy(desc(appOrders.createdAt))).map(orderOf);
  const approvedByName = new Map<string, AppOrder>();
  for (const o of orders) if (o.status === "approved" && !approvedByName.has(o.name)) approvedByName.set(o.name, o);
  const items: ResourceRequest[] = [];
  const idOf = (component: string, env: string | null, res: string) => `${component}/${env ?? "-"}/${res}`;
  const mrOf = (o: AppOrder | undefined) => (o?.mergeRequest ? { iid: o.mergeRequest.iid, webUrl: o.mergeRequest.webUrl } : null);

  for (const entry of deps.catalog.entries()) {
    const order = approvedByName.get(entry.name);
    for (const r of resourcesOf(entry.component)) {
      items.push({
        id: idOf(entry.name, r.environment, r.resource),
        component: entry.name,
        environment: r.environment,
        resource: r.resource,
        status: "provisioned-by-merge",
        source: "component",
        orderId: order?.id ?? null,
        requestedBy: order?.requester ?? null,
        requestedAt: order?.createdAt ?? null,
        mergeRequest: mrOf(order),
        reason: null,
      });
    }
  }
  for (const o of orders) {
    if (o.status === "approved" && (deps.catalog.get(o.name) || approvedByName.get(o.name) !== o)) continue;
    const status = o.status === "rejected" ? "rejected" : o.status === "approved" ? "provisioned-by-merge" : "requested";
    for (const r of o.resources) {
      items.push({
        id: `${idOf(o.name, r.environment, r.resource)}#${o.id}`,
        component: o.name,
        environment: r.environment,
        resource: r.resource,
        status,
        source: "order",
        orderId: o.id,
        requestedBy: o.requester,
        requestedAt: o.createdAt,
        mergeRequest: mrOf(o),
        reason: o.status === "rejected" ? o.reason : null,
      });
    }
  }
  const filtered = items.filter(
    (i) =>
      (!filter.component || i.component === filter.component) &&
      (!filter.environment || i.environment === filter.environment) &&
      (!filter.resource || i.resource === filter.resource) &&
      (!filter.status || i.status === filter.status),
  );
  filtered.sort((a, b) => a.component.localeCompare(b.component) || (a.environment ?? "").localeCompare(b.environment ?? "") || a.resource.localeCompare(b.resource));
  const counts = Object.fromEntries(RESOURCE_STATUSES.map((s) => [s, filtered.filter((i) => i.status === s).length])) as ResourceRequestList["counts"];
  return { items: filtered, total: filtered.length, counts };
}

export { ORDER_STATUSES };
