/**
 * The one way a change reaches the audit log. Every mutating feature of the portal calls recordAudit
 * with who asked (an AuditContext, made by the route from its request and user) and what it changed:
 *
 *   in the transaction of the change, when the change is in the portal database:
 *     await db.transaction(async (tx) => { …change…; await recordAudit(tx, by, entry, "in-transaction"); });
 *   right after a change in git or the offers service succeeded:
 *     await recordAudit(deps.db, by, entry, "after-remote-change");
 *
 * In a transaction the entry commits or rolls back with the change (a failed write fails the change).
 * After a remote change the change has happened: a failed write is logged whole and never turns the
 * success into an error answer (docs/decisions/2026-12-06-one-audit-path.md).
 *
 * This module depends on no feature; the features depend on it. The log itself (the table, listing,
 * summaries) is ./audit-store.ts.
 */
import "server-only";
import type { PortalDatabase } from "./db/database";
import { requestIdOf, writeAudit, type AuditActor, type AuditInput } from "./audit-store";

/** Who asked for a change: the signed-in user, the request id, and the offers environment the change was made in. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string;
  /** "test": a change in a game's test environment, marked so in the entry's target and summary. */
  offersEnvironment?: "live" | "test";
}

/** What a feature says of its change; the context adds who and which request. */
export type AuditEntryInput = Omit<AuditInput, "actor" | "requestId">;

/** Where the entry is written: in the change's own transaction, or after a change made elsewhere succeeded. */
export type AuditMoment = "in-transaction" | "after-remote-change";

/** The context of a route's call: its user, its x-request-id (or a new one), and `environment=test` of an offers route. */
export function auditContextOf(request: Request, user: AuditActor): AuditContext {
  const test = new URL(request.url).searchParams.get("environment") === "test";
  return { actor: { id: user.id, name: user.name }, requestId: requestIdOf(request), ...(test ? { offersEnvironment: "test" as const } : {}) };
}

/**
 * Writes one entry. `db` is the change's transaction ("in-transaction"), or the portal database, or how
 * to open it ("after-remote-change": a failed open is logged like a failed write).
 */
export async function recordAudit(db: PortalDatabase | (() => Promise<PortalDatabase>), by: AuditContext, entry: AuditEntryInput, moment: AuditMoment): Promise<void> {
  const full: AuditInput = { ...inTestEnvironment(by, entry), actor: { id: by.actor.id, name: by.actor.name }, requestId: by.requestId };
  if (moment === "in-transaction") {
    await writeAudit(typeof db === "function" ? await db() : db, full);
    return;
  }
  try {
    await writeAudit(typeof db === "function" ? await db() : db, full);
  } catch (e) {
    console.error(`[portal] audit entry not written (${(e as Error).message}):`, JSON.stringify(full));
  }
}

/** A change made in a game's test environment says so in its target and summary, so nobody reads it as a change of live offers. */
function inTestEnvironment(by: AuditContext, entry: AuditEntryInput): AuditEntryInput {
  if (by.offersEnvironment !== "test") return entry;
  return { ...entry, target: `${entry.target} (test)`, summary: `[test environment] ${entry.summary}` };
}
