// The audit page's filter form: its fields as typed, parsed into GET /api/audit's own filter schema
// (auditFilterSchema), the query string of a page of entries, and the filters as the page's address keeps
// them (so back, forward and a shared link show the same entries).
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

const FIELDS = ["actor", "action", "component", "target", "from", "to"] as const;

/** The filters an address holds (what the schema refuses there is dropped whole: the page shows every entry). */
export function filtersOfAddress(params: URLSearchParams): AuditFilters {
  const given = Object.fromEntries(FIELDS.flatMap((key) => (params.get(key) ? [[key, params.get(key)!]] : [])));
  const parsed = auditFilterSchema.safeParse(given);
  return parsed.success ? parsed.data : auditFilterSchema.parse({});
}

/** The address's query string of the filters (instants as ISO, so a shared link means the same time everywhere). */
export function addressOfFilters(filters: AuditFilters): string {
  const q = new URLSearchParams();
  for (const key of FIELDS) if (filters[key] !== undefined) q.set(key, String(filters[key]));
  return q.toString();
}

/** A datetime-local value (the browser's local time) of an ISO instant. */
function localInput(iso: string): string {
  const t = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/** The form's fields showing the given filters. */
export function formOfFilters(filters: AuditFilters): AuditFilterForm {
  return {
    actor: filters.actor ?? "",
    action: filters.action ?? "",
    component: filters.component ?? "",
    target: filters.target ?? "",
    from: filters.from ? localInput(filters.from) : "",
    to: filters.to ? localInput(filters.to) : "",
  };
}
