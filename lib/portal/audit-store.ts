/**
 * The audit log: every change made through the portal, with actor, action, target, a before/after
 * summary, time and request id. Plain TypeScript over a database handle (tests pass their own).
 * Features write entries only through recordAudit (./audit.ts), in the transaction of their change or
 * right after a remote one; writeAudit here is its storage.
 *
 * The before/after summary holds only what changed (changedFields), values cut to a readable length,
 * so the log stays small and never carries a whole file or a secret token.
 */
import "server-only";
import { randomUUID } from "node:crypto";
import { and, desc, eq, gte, inArray, lt, lte, type SQL } from "drizzle-orm";
import type { PortalDatabase } from "./db/database";
import { auditLog, type AuditRow } from "./db/schema/audit";
import { AUDIT_ACTIONS, auditFilterSchema, type AuditAction, type AuditEntry, type AuditFilter, type AuditInput, type AuditPage, type AuditTargetType } from "./audit-shapes";

type Db = PortalDatabase;

export * from "./audit-shapes";

const MAX_REQUEST_ID = 128;

/** The request id: the x-request-id header when it is sane, else a new UUID. */
export function requestIdOf(request: Request | { headers: Headers }): string {
  const raw = request.headers.get("x-request-id")?.trim();
  if (raw && raw.length <= MAX_REQUEST_ID && /^[\x21-\x7e]+$/.test(raw)) return raw;
  return randomUUID();
}

export function entryOf(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    actorName: row.actorName,
    action: row.action as AuditAction,
    targetType: row.targetType as AuditTargetType,
    target: row.target,
    component: row.component,
    summary: row.summary,
    before: row.before ?? null,
    after: row.after ?? null,
    requestId: row.requestId,
  };
}

export async function writeAudit(db: Db, input: AuditInput): Promise<AuditEntry> {
  const [row] = await db
    .insert(auditLog)
    .values({
      actor: input.actor.id,
      actorName: input.actor.name || input.actor.id,
      action: input.action,
      targetType: input.targetType,
      target: input.target,
      component: input.component ?? null,
      summary: input.summary.slice(0, 500),
      before: input.before === undefined ? null : compact(input.before),
      after: input.after === undefined ? null : compact(input.after),
      requestId: input.requestId,
      ...(input.at ? { at: input.at } : {}),
    })
    .returning();
  return entryOf(row);
}

function actionCondition(raw: string): SQL | undefined {
  const wanted = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const exact = new Set<string>();
  for (const w of wanted) {
    if (w.includes(".")) exact.add(w);
    else for (const a of AUDIT_ACTIONS) if (a.startsWith(`${w}.`)) exact.add(a);
  }
  // An unknown action matches nothing (rather than everything).
  return inArray(auditLog.action, exact.size ? [...exact] : ["-"]);
}

/** Newest first. */
export async function listAudit(db: Db, filter: AuditFilter = {}): Promise<AuditPage> {
  const f = auditFilterSchema.parse(filter);
  const where: SQL[] = [];
  if (f.actor) where.push(eq(auditLog.actor, f.actor));
  if (f.action) {
    const c = actionCondition(f.action);
    if (c) where.push(c);
  }
  if (f.targetType) where.push(eq(auditLog.targetType, f.targetType));
  if (f.target) where.push(eq(auditLog.target, f.target));
  if (f.component) where.push(eq(auditLog.component, f.component));
  if (f.requestId) where.push(eq(auditLog.requestId, f.requestId));
  if (f.from) where.push(gte(auditLog.at, new Date(f.from)));
  if (f.to) where.push(lte(auditLog.at, new Date(f.to)));
  if (f.before) where.push(lt(auditLog.id, f.before));
  const rows: AuditRow[] = await db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(f.limit + 1);
  const more = rows.length > f.limit;
  const page = rows.slice(0, f.limit);
  return { entries: page.map(entryOf), nextBefore: more ? (page[page.length - 1]?.id ?? null) : null };
}

// ---- summaries ----

const MAX_TEXT = 200;
const MAX_FIELDS = 40;

/** A JSON value cut to a readable size: long text shortened, deep structures flattened at depth 4. */
export function compact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date) return value.toISOString();
  if (depth >= 4) return Array.isArray(value) ? `[${value.length} items]` : "{…}";
  if (Array.isArray(value)) return value.slice(0, MAX_FIELDS).map((v) => compact(v, depth + 1));
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>).slice(0, MAX_FIELDS)) out[k] = compact(v, depth + 1);
    return out;
  }
  return String(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0 && prefix) out.set(prefix, {});
    for (const [k, v] of entries) flatten(v, prefix ? `${prefix}.${k}` : k, out);
    return;
  }
  if (prefix) out.set(prefix, value);
}

/**
 * Only the fields that differ, by dotted path (arrays compared whole):
 * {before: {"metadata.displayName": "Old"}, after: {"metadata.displayName": "New"}}.
 */
export function changedFields(before: unknown, after: unknown): { before: Record<string, unknown>; after: Record<string, unknown>; fields: string[] } {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  flatten(before, "", a);
  flatten(after, "", b);
  const fields = [...new Set([...a.keys(), ...b.keys()])].filter((k) => JSON.stringify(a.get(k)) !== JSON.stringify(b.get(k))).sort();
  const pick = (m: Map<string, unknown>) => Object.fromEntries(fields.slice(0, MAX_FIELDS).filter((k) => m.has(k)).map((k) => [k, compact(m.get(k))]));
  return { before: pick(a), after: pick(b), fields };
}
