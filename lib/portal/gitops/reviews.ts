/**
 * Reviews: the config repository's merge requests, decided in the portal. Each request is scoped by its
 * branch, portal/<scope>/…: a component name (its owners and operators decide), "import" (operators),
 * or an app order's new component (leads decide it on the orders queue, not here). The author may
 * close their own request; nobody approves their own. Approving records who agreed (it does not
 * merge); merging is the provider's merge (real git locally, the GitLab API remotely) followed by a
 * catalog refresh, so the catalog and config views show the change at once; a close keeps its reason.
 * Decisions are stored in the portal database whatever the provider (mergeRequestDecisions).
 */
import "server-only";
import type { Review, ReviewDetail } from "@/lib/portal/contracts/reviews";
import { and, eq, inArray } from "drizzle-orm";
import type { Catalog } from "../../catalog/catalog";
import { appOrders, mergeRequestDecisions } from "../db/schema";
import { ScmError, type ScmMergeRequest, type MergeRequestState } from "../../scm/types";
import { forbidden, PortalError } from "../errors";
import { hasRole, type PortalUser } from "../roles";
import { isValidName } from "../../catalog/schema";
import { mayCommit } from "../ownership";
import type { ConfigRepository } from "./config-repo";
import type { Db } from "./releases";
import { recordAudit, type AuditContext, type AuditEntryInput } from "../audit";

export interface ReviewDeps {
  db: Db;
  catalog: Catalog;
  config: ConfigRepository;
}

export type ReviewUser = Pick<PortalUser, "id" | "name" | "roles" | "groups">;

export type { Review, ReviewDetail } from "@/lib/portal/contracts/reviews";
export type ReviewScope = Review["scope"];
export type ReviewPermissions = Review["can"];

export interface ReviewFilter {
  component?: string;
  state?: MergeRequestState | "all";
  author?: string;
  /** Only the requests the caller decides (merges or closes as owner or operator), conflicting ones included. */
  mineToReview?: boolean;
}

const PROPOSED_BY = /^(?:Proposed in the portal by|App order \S+ by) ([^\s]+?)\.?$/m;

/** The portal user who proposed a request: named in its description (GitLab records the token's user as author). */
export function proposerOf(mr: Pick<ScmMergeRequest, "author" | "description">): string {
  return PROPOSED_BY.exec(mr.description)?.[1] ?? mr.author;
}

function scopeOf(mr: ScmMergeRequest, orders: Map<number, { id: string; name: string }>): ReviewScope {
  const order = orders.get(mr.iid);
  if (order) return { kind: "order", component: order.name, orderId: order.id };
  const m = /^portal\/([^/]+)\//.exec(mr.sourceBranch);
  if (!m) return { kind: "other" };
  if (m[1] === "import") return { kind: "import" };
  // A scope that cannot be a component's name (the scorecard rules: _scorecards) is the config repository's: operators decide.
  return isValidName(m[1]) ? { kind: "component", component: m[1] } : { kind: "other" };
}

/** Who may decide a request, as a pure rule: the component's owners and operators; operators for the rest. */
export function permissionsFor(
  user: ReviewUser,
  review: { state: MergeRequestState; author: string; scope: ReviewScope; approvals: Array<{ by: string }> },
  catalog: Pick<Catalog, "get">,
): ReviewPermissions {
  const none = { approve: false, merge: false, close: false };
  if (review.state !== "opened" || review.scope.kind === "order") return none;
  const entry = review.scope.kind === "component" ? catalog.get(review.scope.component) : undefined;
  const decider = entry ? mayCommit(user, entry.component) : hasRole(user, "operator");
  const author = review.author === user.id;
  return {
    approve: decider && !author && !review.approvals.some((a) => a.by === user.id),
    merge: decider,
    close: decider || author,
  };
}

async function ordersByIid(deps: ReviewDeps, iids: number[]): Promise<Map<number, { id: string; name: string }>> {
  if (iids.length === 0) return new Map();
  const rows = await deps.db
    .select({ id: appOrders.id, name: appOrders.name, iid: appOrders.mergeRequestIid, repo: appOrders.mergeRequestRepo })
    .from(appOrders)
    .where(inArray(appOrders.mergeRequestIid, iids));
  const repo = deps.config.target.repo;
  return new Map(rows.filter((r) => r.iid !== null && (r.repo ?? repo) === repo).map((r) => [r.iid as number, { id: r.id, name: r.name }]));
}

async function decisionsOf(deps: ReviewDeps, iids: number[]) {
  if (iids.length === 0) return [];
  return deps.db
    .select()
    .from(mergeRequestDecisions)
    .where(and(eq(mergeRequestDecisions.repository, deps.config.target.repo), inArray(mergeRequestDecisions.iid, iids)));
}

async function toReviews(deps: ReviewDeps, user: ReviewUser, list: ScmMergeRequest[]): Promise<Review[]> {
  const iids = list.map((m) => m.iid);
  const [orders, decisions] = await Promise.all([ordersByIid(deps, iids), decisionsOf(deps, iids)]);
  return list.map((mr) => {
    const mine = decisions.filter((d) => d.iid === mr.iid).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const approvals = mine.filter((d) => d.action === "approve").map((d) => ({ by: d.actor, name: d.actorName, at: d.createdAt.toISOString() }));
    const close = mine.find((d) => d.action === "close");
    const base = {
      iid: mr.iid,
      title: mr.title,
      description: mr.description,
      author: proposerOf(mr),
      sourceBranch: mr.sourceBranch,
      targetBranch: mr.targetBranch,
      state: mr.state,
      createdAt: mr.createdAt,
      updatedAt: mr.updatedAt,
      mergedAt: mr.mergedAt,
      webUrl: mr.webUrl,
      scope: scopeOf(mr, orders),
      approvals,
      mergedBy: mine.find((d) => d.action === "merge")?.actor ?? null,
      closedBy: close?.actor ?? null,
      closeReason: close?.reason ?? null,
    };
    const can = permissionsFor(user, base, deps.catalog);
    // A conflicting request is refused at merge (merge-conflict): can.merge says so before the click, in lists too.
    return { ...base, hasConflicts: mr.hasConflicts, can: { ...can, merge: can.merge && !mr.hasConflicts } };
  });
}

function sourceControl(e: unknown, what: string): never {
  if (e instanceof ScmError) {
    if (e.code === "conflict") throw new PortalError("merge-conflict", `${what}: ${e.message}`, { cause: e });
    if (e.code === "not_mergeable") throw new PortalError("merge-request-decided", `${what}: ${e.message}`, { cause: e });
    if (e.code === "not_found") throw new PortalError("not-found", e.message, { cause: e });
    throw new PortalError("source-control-failed", `${what}: ${e.message}`, { cause: e });
  }
  throw e;
}

export async function listReviews(deps: ReviewDeps, user: ReviewUser, filter: ReviewFilter = {}): Promise<Review[]> {
  const { provider, repo } = deps.config.target;
  let list: ScmMergeRequest[];
  try {
    list = await provider.listMergeRequests(repo, { state: filter.state ?? "opened" });
  } catch (e) {
    sourceControl(e, "the merge requests could not be listed");
  }
  let reviews = await toReviews(deps, user, list);
  if (filter.component) reviews = reviews.filter((r) => r.scope.kind !== "other" && r.scope.kind !== "import" && r.scope.component === filter.component);
  if (filter.author) reviews = reviews.filter((r) => r.author === filter.author);
  // A conflicting request still waits for its deciders (to close it), though none may merge it.
  if (filter.mineToReview) reviews = reviews.filter((r) => permissionsFor(user, r, deps.catalog).merge);
  return reviews.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

async function requireReview(deps: ReviewDeps, user: ReviewUser, id: number): Promise<Review> {
  const { provider, repo } = deps.config.target;
  let mr: ScmMergeRequest | null;
  try {
    mr = await provider.getMergeRequest(repo, id);
  } catch (e) {
    sourceControl(e, `merge request !${id} could not be read`);
  }
  if (!mr) throw new PortalError("not-found", `no merge request !${id} in the config repository`);
  const [review] = await toReviews(deps, user, [mr]);
  return review;
}

export async function getReview(deps: ReviewDeps, user: ReviewUser, id: number): Promise<ReviewDetail> {
  const review = await requireReview(deps, user, id);
  const { provider, repo } = deps.config.target;
  try {
    const diff = await provider.getMergeRequestDiff(repo, id);
    // The diff's verdict is the later read: the target may have moved since the request was read.
    const merge = permissionsFor(user, review, deps.catalog).merge && !diff.hasConflicts;
    return { ...review, can: { ...review.can, merge }, files: diff.files, hasConflicts: diff.hasConflicts };
  } catch (e) {
    sourceControl(e, `the changes of merge request !${id} could not be read`);
  }
}

/** Why the caller may not take `action` on an open request (thrown), or nothing. */
function refuse(deps: ReviewDeps, review: Review, action: keyof ReviewPermissions, user: ReviewUser): void {
  if (review.state !== "opened") throw new PortalError("merge-request-decided", `merge request !${review.iid} is already ${review.state}`);
  if (review.scope.kind === "order") {
    throw new PortalError("order-merge-request", `merge request !${review.iid} belongs to the app order ${review.scope.component}: a lead approves or rejects it under App orders`);
  }
  if (review.can[action]) return;
  if (action === "merge" && review.hasConflicts && permissionsFor(user, review, deps.catalog).merge) {
    throw new PortalError("merge-conflict", `merge request !${review.iid} conflicts with ${review.targetBranch}: the files it changes changed there since; close it and propose the change again`);
  }
  if (action === "approve" && review.author === user.id) throw new PortalError("own-merge-request", "you cannot approve your own merge request; another owner or an operator does");
  if (action === "approve" && review.approvals.some((a) => a.by === user.id)) throw new PortalError("merge-request-decided", `you already approved merge request !${review.iid}`);
  const scope = review.scope;
  const who = scope.kind === "component" ? `the owners of ${scope.component} and operators` : "operators";
  const closers = action === "close" ? (["author"] as const) : [];
  throw forbidden([...(scope.kind === "component" ? (["owner"] as const) : []), "operator", ...closers], `only ${who} may ${action} merge request !${review.iid}${action === "close" ? " (and its author)" : ""}`);
}

type Decision = keyof ReviewPermissions;

/**
 * One decision: refused unless the caller may take it now, then `apply` (the provider's merge or close),
 * then recorded; answers the request as it is afterwards. With `audit` (who asked), the decision is
 * audited once it is recorded.
 */
async function decide(
  deps: ReviewDeps,
  user: ReviewUser,
  id: number,
  action: Decision,
  options: { reason?: string; apply?: () => Promise<unknown>; audit?: AuditContext } = {},
): Promise<Review> {
  refuse(deps, await requireReview(deps, user, id), action, user);
  await options.apply?.();
  await deps.db
    .insert(mergeRequestDecisions)
    .values({ repository: deps.config.target.repo, iid: id, action, actor: user.id, actorName: user.name || user.id, reason: options.reason ?? null })
    .onConflictDoNothing();
  const review = await requireReview(deps, user, id);
  if (options.audit) await recordAudit(deps.db, options.audit, decisionEntry(action, review), "after-remote-change");
  return review;
}

function decisionEntry(action: Decision, review: Review): AuditEntryInput {
  const component = review.scope.kind === "component" ? review.scope.component : null;
  const verb = action === "approve" ? "approved" : action === "merge" ? "merged" : "closed";
  return {
    action: `merge-request.${action}`,
    targetType: "merge-request",
    target: `!${review.iid}`,
    component,
    summary: `${verb} merge request !${review.iid} "${review.title}"${action === "close" && review.closeReason ? `: ${review.closeReason}` : ""}`,
    before: { state: "opened" },
    after: { state: review.state, author: review.author, sourceBranch: review.sourceBranch, approvals: review.approvals.map((a) => a.by), reason: review.closeReason },
  };
}

export function approveReview(deps: ReviewDeps, user: ReviewUser, id: number, audit?: AuditContext): Promise<Review> {
  return decide(deps, user, id, "approve", { audit });
}

export function mergeReview(deps: ReviewDeps, user: ReviewUser, id: number, audit?: AuditContext): Promise<Review> {
  const { provider, repo } = deps.config.target;
  return decide(deps, user, id, "merge", {
    audit,
    apply: async () => {
      await provider.mergeMergeRequest(repo, id).catch((e: unknown) => sourceControl(e, `merge request !${id} could not be merged`));
      // The local provider refreshed the catalog as it merged; a remote config repository needs a pull.
      await deps.catalog.refresh({ pull: true }).catch(() => undefined);
    },
  });
}

export function closeReview(deps: ReviewDeps, user: ReviewUser, id: number, reason: string, audit?: AuditContext): Promise<Review> {
  const { provider, repo } = deps.config.target;
  return decide(deps, user, id, "close", {
    reason,
    audit,
    apply: () => provider.closeMergeRequest(repo, id).catch((e: unknown) => sourceControl(e, `merge request !${id} could not be closed`)),
  });
}
