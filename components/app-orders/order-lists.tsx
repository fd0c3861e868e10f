"use client";
// "My orders" (status and rejection reasons) and the leads' queue (approve and reject dialogs).
import Link from "next/link";
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, Badge, Button, Dialog, Field, Textarea, type BadgeTone } from "@/components/ui";
import { recordYaml, type AppOrder, type OrderStatus } from "@/lib/portal/app-orders/model";
import type { Component } from "@/lib/catalog/schema";
import { approveOrder, fetchOrders, orderKeys, rejectOrder } from "./api";
import s from "./app-orders.module.css";

const STATUS: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: "waiting for a lead", tone: "warning" },
  approving: { label: "being approved", tone: "accent" },
  approved: { label: "approved", tone: "success" },
  rejected: { label: "rejected", tone: "danger" },
};

const when = (iso: string) => new Date(iso).toLocaleString();

function OrderSummary({ order }: { order: AppOrder }) {
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

export function MyOrders() {
  const orders = useQuery({ queryKey: orderKeys.list("requester=me"), queryFn: () => fetchOrders("requester=me"), refetchInterval: 15_000 });
  if (orders.isPending) return <p className="muted">Loading your orders…</p>;
  if (orders.isError) return <Alert tone="error">{orders.error.message}</Alert>;
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

export function LeadQueue({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const orders = useQuery({ queryKey: orderKeys.list("status=pending"), queryFn: () => fetchOrders("status=pending"), refetchInterval: 10_000 });
  const [toApprove, setToApprove] = useState<AppOrder | null>(null);
  const [toReject, setToReject] = useState<AppOrder | null>(null);
  const [reason, setReason] = useState("");
  const [reasonTouched, setReasonTouched] = useState(false);
  const [done, setDone] = useState<{ tone: "success" | "info"; text: string; link?: string } | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: orderKeys.all });
  const approve = useMutation({
    mutationFn: (id: string) => approveOrder(id),
    onSuccess: (r) => {
      setToApprove(null);
      setDone({ tone: "success", text: `Approved ${r.order.name}: the merge request is merged${r.inCatalog ? " and the component is in the catalog" : ""}.`, link: `/catalog/${r.order.name}` });
      void refresh();
    },
    onSettled: () => void refresh(),
  });
  const reject = useMutation({
    mutationFn: ({ id, why }: { id: string; why: string }) => rejectOrder(id, why),
    onSuccess: (o) => {
      setToReject(null);
      setReason("");
      setReasonTouched(false);
      setDone({ tone: "info", text: `Rejected ${o.name}; ${o.requesterName} sees your reason.` });
      void refresh();
    },
    onSettled: () => void refresh(),
  });

  const reasonMissing = reason.trim() === "";
  return (
    <div className="stack">
      {done ? (
        <Alert tone={done.tone === "success" ? "success" : "info"} data-testid="queue-result">
          {done.text} {done.link ? <Link href={done.link}>Open it</Link> : null}
        </Alert>
      ) : null}
      {orders.isPending ? <p className="muted">Loading the queue…</p> : null}
      {orders.isError ? <Alert tone="error">{orders.error.message}</Alert> : null}
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
                <div className={s.actions}>
                  <Button
                    variant="primary"
                    size="small"
                    disabled={own}
                    title={own ? "You cannot approve your own order; another lead has to." : undefined}
                    onClick={() => {
                      approve.reset();
                      setToApprove(order);
                    }}
                  >
                    Approve
                  </Button>
                  <Button
                    variant="danger"
                    size="small"
                    onClick={() => {
                      reject.reset();
                      setToReject(order);
                    }}
                  >
                    Reject
                  </Button>
                  {own ? <span className="muted">Your own order: another lead approves it.</span> : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : null}

      <Dialog
        open={toApprove !== null}
        onClose={() => setToApprove(null)}
        title={`Approve ${toApprove?.name ?? ""}?`}
        actions={
          <>
            <Button onClick={() => setToApprove(null)}>Cancel</Button>
            <Button variant="primary" disabled={approve.isPending} onClick={() => toApprove && approve.mutate(toApprove.id)}>
              {approve.isPending ? "Merging…" : "Approve and merge"}
            </Button>
          </>
        }
      >
        <p>
          This merges merge request !{toApprove?.mergeRequest?.iid} in the config repository: <strong>{toApprove?.name}</strong> joins the catalog and its resource requests are
          provisioned.
        </p>
        {approve.error ? <Alert tone="error">{approve.error.message}</Alert> : null}
      </Dialog>

      <Dialog
        open={toReject !== null}
        onClose={() => setToReject(null)}
        title={`Reject ${toReject?.name ?? ""}?`}
        actions={
          <>
            <Button onClick={() => setToReject(null)}>Cancel</Button>
            <Button
              variant="danger"
              disabled={reject.isPending}
              onClick={() => {
                setReasonTouched(true);
                if (toReject && !reasonMissing) reject.mutate({ id: toReject.id, why: reason });
              }}
            >
              {reject.isPending ? "Rejecting…" : "Reject the order"}
            </Button>
          </>
        }
      >
        <p>The merge request is closed. {toReject?.requesterName} sees your reason with the order.</p>
        <Field label="Reason" hint="Required: tell the requester why." error={reasonTouched && reasonMissing ? "A reason is required." : undefined}>
          {(id) => <Textarea id={id} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} onBlur={() => setReasonTouched(true)} />}
        </Field>
        {reject.error ? <Alert tone="error">{reject.error.message}</Alert> : null}
      </Dialog>
    </div>
  );
}
