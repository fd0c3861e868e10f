// Browser-side calls of the audit log (admins), on the portal's one fetch client (types: lib/portal/contracts/audit.ts).
import type { AuditPage } from "@/lib/portal/contracts/audit";
import { apiFetch } from "@/components/http/api-client";

export function fetchAuditPage(query: string): Promise<AuditPage> {
  return apiFetch(`/api/audit?${query}`);
}
