// One order's head: name, status, who ordered it and when, its environments and resources.
import { Badge, type BadgeTone } from "@/components/ui";
import type { AppOrder, OrderStatus } from "@/lib/portal/app-orders/model";
import s from "./app-orders.module.css";

const STATUS: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: "waiting for a lead", tone: "warning" },
  approving: { label: "being approved", tone: "accent" },
  approved: { label: "approved", tone: "success" },
  rejected: { label: "rejected", tone: "danger" },
};

const when = (iso: string) => new Date(iso).toLocaleString();

export function OrderSummary({ order }: { order: AppOrder }) {
  const resources = order.resources.map((r) => `${r.resource}${r.environment ? ` (${r.environment})` : ""}`).join(", ");
  const envs = (order.component as { spec?: { environments?: string[] } }).spec?.environments ?? [];
  return (
    <>
      <div className={s.orderHead}>
        <strong>
          {order.displayName} <code>{order.name}</code>
        </strong>
        <Badge tone={STATUS[order.status].tone} data-testid={`order-status-${order.name}`}>
          {STATUS[order.status].label}
        </Badge>
      </div>
      <span className="muted">
        {order.kind} · ordered by {order.requesterName} on {when(order.createdAt)}
        {order.mergeRequest ? ` · merge request !${order.mergeRequest.iid}` : ""}
      </span>
      <span className="muted">
        Environments: {envs.join(", ") || "none"} · Resources: {resources || "none"}
      </span>
    </>
  );
}
