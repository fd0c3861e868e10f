import type { Metadata } from "next";
import { Alert } from "@/components/ui";
import { AuditBrowser } from "@/components/audit/audit-browser";
import { requireRole } from "@/lib/portal/session";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage() {
  const user = await requireRole("admin", "/audit");
  return (
    <div className="stack">
      <h1>Audit log</h1>
      <p className="muted">Every change made through the portal: who, what, on which target, before and after, when, and the request id.</p>
      {user ? <AuditBrowser /> : <Alert tone="warning">The audit log needs the admin role.</Alert>}
    </div>
  );
}
