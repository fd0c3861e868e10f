// The audit page's filter form: its fields as typed, parsed into GET /api/audit's own filter schema
// (auditFilterSchema), and the query string of a page of entries.
import { z } from "zod";
import { auditFilterSchema } from "@/lib/portal/audit-shapes";

export interface AuditFilterForm {
  actor: string;
  action: string;
  component: string;
  target: string;
  /** datetime-local: the browser's local time, without a zone. */
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilterForm = { actor: "", action: "", component: "", target: "", from: "", to: "" };

/** A local date-time as an ISO instant; what cannot be read is passed on as typed, for the schema to refuse. */
const instant = (local: string) => {
  const t = new Date(local);
  return Number.isNaN(t.getTime()) ? local : t.toISOString();
};

export const auditFilterFormSchema = z
  .object({ actor: z.string(), action: z.string(), component: z.string(), target: z.string(), from: z.string(), to: z.string() })
  .transform(({ from, to, ...text }) => ({
    ...Object.fromEntries(Object.entries(text).filter(([, v]) => v.trim() !== "")),
    ...(from ? { from: instant(from) } : {}),
    ...(to ? { to: instant(to) } : {}),
  }))
  .pipe(auditFilterSchema);

export type AuditFilters = z.output<typeof auditFilterFormSchema>;

export function auditQuery(filters: AuditFilters, before: number | null): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...(before ? { before } : {}) })) if (value !== undefined) q.set(key, String(value));
  return q.toString();
}
