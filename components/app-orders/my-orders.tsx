"use client";
// "My orders": the signed-in user's orders, their status and, for rejected ones, the lead's reason.
import { Link } from "@/components/ui/link";
import { useQuery } from "@tanstack/react-query";
import { Alert } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { fetchOrders, orderKeys } from "./api";
import { OrderSummary } from "./order-summary";
import s from "./app-orders.module.css";

export function MyOrders() {
  const orders = useQuery({ queryKey: orderKeys.list("requester=me"), queryFn: () => fetchOrders("requester=me"), refetchInterval: 15_000 });
  if (orders.isPending) return <p className="muted">Loading your orders…</p>;
  if (orders.isError) return <Alert tone="error">{describeApiError(orders.error)}</Alert>;
  if (orders.data.orders.length === 0) return <p className="muted">You have not ordered an app yet.</p>;
  return (
    <ul className={s.orders} data-testid="my-orders">
      {orders.data.orders.map((order) => (
        <li key={order.id} className={s.order} data-testid={`my-order-${order.name}`}>
          <OrderSummary order={order} />
          {order.status === "rejected" ? (
            <p className={s.reason} data-testid={`order-reason-${order.name}`}>
              Rejected by {order.decidedBy ?? "a lead"}: {order.reason}
            </p>
          ) : null}
          {order.status === "approved" ? (
            <span>
              Approved by {order.decidedBy}. <Link href={`/catalog/${order.name}`}>Open {order.name} in the catalog</Link>
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
