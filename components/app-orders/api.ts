// Browser-side calls of the app-order API, on the portal's one fetch client, and their query keys
// (types: lib/portal/contracts/app-orders.ts).
import type { z } from "zod";
import type { AppOrder, OrderInput } from "@/lib/portal/app-orders/model";
import type { ApproveAnswer, OrderList, PendingCount } from "@/lib/portal/contracts/app-orders";
import { apiFetch } from "@/components/http/api-client";

const order = (id: string) => `/api/app-order-requests/${encodeURIComponent(id)}`;

export const orderKeys = {
  all: ["app-orders"] as const,
  list: (filter: string) => ["app-orders", "list", filter] as const,
  pendingCount: ["app-orders", "pending-count"] as const,
};

export function fetchOrders(query: string): Promise<z.infer<typeof OrderList>> {
  return apiFetch(`/api/app-order-requests${query ? `?${query}` : ""}`);
}

export function fetchPendingCount(): Promise<z.infer<typeof PendingCount>> {
  return apiFetch("/api/app-order-requests/pending/count");
}

export function submitOrder(body: OrderInput): Promise<AppOrder> {
  return apiFetch("/api/app-order-requests", { method: "POST", json: body });
}

export function approveOrder(id: string): Promise<ApproveAnswer> {
  return apiFetch(`${order(id)}/approve`, { method: "POST" });
}

export function rejectOrder(id: string, reason: string): Promise<AppOrder> {
  return apiFetch(`${order(id)}/reject`, { method: "POST", json: { reason } });
}
