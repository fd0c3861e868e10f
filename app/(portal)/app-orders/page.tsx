import type { Metadata } from "next";
import { ButtonLink, Card } from "@/components/ui";
import { MyOrders } from "@/components/app-orders/my-orders";
import { hasRole } from "@/lib/portal/roles";
import { requireUser } from "@/lib/portal/session";
import styles from "@/components/app-orders/app-orders.module.css";

export const metadata: Metadata = { title: "App orders" };

export default async function AppOrdersPage() {
  const user = await requireUser("/app-orders");
  return (
    <div className={`stack ${styles.page}`}>
      <h1>App orders</h1>
      <p className="muted">
        Order a new app or service: the order is a merge request in the config repository that adds its catalog record and its resource requests. A lead
        approves (merges) or rejects it.
      </p>
      <div className="row">
        <ButtonLink href="/app-orders/new" variant="primary" data-testid="new-order">
          Order an app
        </ButtonLink>
        {hasRole(user, "lead") ? (
          <ButtonLink href="/app-orders/queue" data-testid="open-queue">
            Leads&apos; queue
          </ButtonLink>
        ) : null}
      </div>
      <Card title="My orders">
        <MyOrders />
      </Card>
    </div>
  );
}
