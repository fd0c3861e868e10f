import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { OrderWizard } from "@/components/app-orders/order-wizard/order-wizard";
import { requireUser } from "@/lib/portal/session";

export const metadata: Metadata = { title: "Order an app" };

export default async function NewOrderPage() {
  const user = await requireUser("/app-orders/new");
  return (
    <div className="stack">
      <p>
        <Link href="/app-orders">← App orders</Link>
      </p>
      <h1>Order an app</h1>
      <OrderWizard userId={user.id} />
    </div>
  );
}
