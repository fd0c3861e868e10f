"use client";
// The leads' queue: orders waiting for a decision, each with its record, approve and reject.
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Button } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";
import { recordYaml, type AppOrder } from "@/lib/portal/app-orders/model";
import type { Component } from "@/lib/catalog/schema";
import { fetchOrders, orderKeys } from "./api";
import { OrderSummary } from "./order-summary";
import { ApproveOrderDialog } from "./approve-order-dialog";
import { RejectOrderDialog } from "./reject-order-dialog";
import s from "./app-orders.module.css";

export function LeadQueue({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const orders = useQuery({ queryKey: orderKeys.list("status=pending"), queryFn: () => fetchOrders("status=pending"), refetchInterval: 10_000 });
  const [toApprove, setToApprove] = useState<AppOrder | null>(null);
  const [toReject, setToReject] = useState<AppOrder | null>(null);
  const [done, setDone] = useState<{ tone: "success" | "info"; text: string; link?: string } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: orderKeys.all });

  return (
    <div className="stack">
      {done ? (
        <Alert tone={done.tone} data-testid="queue-result">
          {done.text} {done.link ? <Link href={done.link}>Open it</Link> : null}
        </Alert>
      ) : null}
      {orders.isPending ? <p className="muted">Loading the queue…</p> : null}
      {orders.isError ? <Alert tone="error">{describeApiError(orders.error)}</Alert> : null}
      {orders.data && orders.data.orders.length === 0 ? <p className="muted">No order is waiting for a decision.</p> : null}
      {orders.data && orders.data.orders.length > 0 ? (
        <ul className={s.orders} data-testid="lead-queue">
          {orders.data.orders.map((order) => {
            const own = order.requester === userId;
            return (
              <li key={order.id} className={s.order} data-testid={`queue-order-${order.name}`}>
                <OrderSummary order={order} />
                <details>
                  <summary>The record</summary>
                  <pre className={s.preview}>{recordYaml(order.component as unknown as Component)}</pre>
                </details>
                {/* Each button names its order (hidden text after the visible word): a list of "Approve" buttons tells a screen reader nothing. */}
                <div className={s.actions}>
                  <Button variant="primary" size="small" disabled={own} title={own ? "You cannot approve your own order; another lead has to." : undefined} onClick={() => setToApprove(order)}>
                    Approve<span className="visually-hidden"> order {order.name}</span>
                  </Button>
                  <Button variant="danger" size="small" onClick={() => setToReject(order)}>
                    Reject<span className="visually-hidden"> order {order.name}</span>
                  </Button>
                  {own ? <span className="muted">Your own order: another lead approves it.</span> : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}

      <ApproveOrderDialog
        order={toApprove}
        onClose={() => {
          setToApprove(null);
          refresh();
        }}
        onApproved={(r) => {
          setToApprove(null);
          setDone({ tone: "success", text: `Approved ${r.order.name}: the merge request is merged${r.inCatalog ? " and the component is in the catalog" : ""}.`, link: `/catalog/${r.order.name}` });
          refresh();
        }}
      />
      <RejectOrderDialog
        order={toReject}
        onClose={() => {
          setToReject(null);
          refresh();
        }}
        onRejected={(o) => {
          setToReject(null);
          setDone({ tone: "info", text: `Rejected ${o.name}; ${o.requesterName} sees your reason.` });
          refresh();
        }}
      />
    </div>
  );
}
