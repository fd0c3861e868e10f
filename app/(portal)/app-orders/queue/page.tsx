import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Alert } from "@/components/ui";
import { LeadQueue } from "@/components/app-orders/lead-queue";
import { requireRole } from "@/lib/portal/session";
import styles from "@/components/app-orders/app-orders.module.css";

export const metadata: Metadata = { title: "Leads' queue" };

export default async function LeadQueuePage() {
  const user = await requireRole("lead", "/app-orders/queue");
  return (
    <div className={`stack ${styles.page}`}>
      <p>
        <Link href="/app-orders">← App orders</Link>
      </p>
      <h1>Orders waiting for a decision</h1>
      {user ? <LeadQueue userId={user.id} /> : <Alert tone="warning">Approving and rejecting app orders needs the lead role.</Alert>}
    </div>
  );
}
