/**
 * Deciding app orders: a lead approves (the merge request is merged, the catalog refreshed) or
 * rejects (closed, with a reason the requester sees).
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
import "server-only";
import { and, eq, lt, or } from "drizzle-orm";
import type { PortalDatabase } from "../db/database";
import { appOrders, type AppOrderRow } from "../db/schema/app-orders";
import { ScmError, type ScmMergeRequest } from "../../scm/types";
import { PortalError } from "../errors";
import { recordAudit } from "../audit";
import type { AppOrder, OrderStatus } from "./model";
import { auditContextOfActor, getRow, orderOf, type Actor, type AppOrderDeps } from "./orders";

type Db = PortalDatabase;

export const STALE_APPROVING_MS = 10 * 60 * 1000;

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
    // The merge is the change (source control): audited right after it, by the lead whose approval won.
    await recordAudit(deps.db, auditContextOfActor(actor), {
      action: "order.approve",
      targetType: "order",
      target: id,
      component: final.name,
      summary: `approved the order of ${final.name} (requested by ${final.requester}); merged !${claimed.mergeRequestIid ?? "?"}`,
      before: { status: "pending" },
      after: { status: order.status, mergeCommit: settled.mergeCommit },
    }, "after-remote-change");
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
        await recordAudit(deps.db, { actor: { id: lead, name: lead }, requestId: `startup-recovery-${row.id}` }, {
          action: "order.approve",
          targetType: "order",
          target: row.id,
          component: row.name,
          summary: `approval of ${row.name} by ${lead} completed at start-up after an interruption; merged !${row.mergeRequestIid ?? "?"}`,
          before: { status: "approving" },
          after: { status: "approved", mergeCommit: settled.mergeCommit },
        }, "after-remote-change");
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
  // The merge request's close is the last change (source control): audited right after it.
  await recordAudit(deps.db, auditContextOfActor(actor), {
    action: "order.reject",
    targetType: "order",
    target: id,
    component: claimed.name,
    summary: `rejected the order of ${claimed.name} (requested by ${claimed.requester}): ${why}`,
    before: { status: "pending" },
    after: { status: "rejected", reason: why },
  }, "after-remote-change");
  return order;
}

// ---- resource requests ----
