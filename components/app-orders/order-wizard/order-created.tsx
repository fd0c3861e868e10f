"use client";
import { Link } from "@/components/ui/link";
import { Alert, Button, Card } from "@/components/ui";
import type { AppOrder } from "@/lib/portal/app-orders/model";

/** What the wizard shows once the order is sent. */
export function OrderCreated({ order, onAnother }: { order: AppOrder; onAnother: () => void }) {
  return (
    <Card title="Order sent" data-testid="order-created">
      <Alert tone="success">
        Your order of <strong>{order.name}</strong> is waiting for a lead. It is merge request !{order.mergeRequest?.iid} in the config repository.
      </Alert>
      <div className="row">
        <Link href="/app-orders">See my orders</Link>
        <Button onClick={onAnother}>Order another app</Button>
      </div>
    </Card>
  );
}
