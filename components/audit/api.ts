// Browser-side calls of the audit log (admins), on the portal's one fetch client.
import type { AuditPage } from "@/lib/portal/audit-shapes";
import { apiFetch } from "@/components/http/api-client";

export function fetchAuditPage(query: string): Promise<AuditPage> {
  return apiFetch(`/api/audit?${query}`);
}
