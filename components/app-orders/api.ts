// Browser-side calls of the app-order API, on the portal's one fetch client, and their query keys.
import type { AppOrder, OrderInput } from "@/lib/portal/app-orders/model";
import { apiFetch } from "@/components/http/api-client";

const order = (id: string) => `/api/app-order-requests/${encodeURIComponent(id)}`;

export const orderKeys = {
  all: ["app-orders"] as const,
  list: (filter: string) => ["app-orders", "list", filter] as const,
  pendingCount: ["app-orders", "pending-count"] as const,
};

export function fetchOrders(query: string): Promise<{ orders: AppOrder[] }> {
  return apiFetch(`/api/app-order-requests${query ? `?${query}` : ""}`);
}

export function fetchPendingCount(): Promise<{ count: number }> {
  return apiFetch("/api/app-order-requests/pending/count");
}

export function submitOrder(body: OrderInput): Promise<AppOrder> {
  return apiFetch("/api/app-order-requests", { method: "POST", json: body });
}

export function approveOrder(id: string): Promise<{ order: AppOrder; inCatalog: boolean }> {
  return apiFetch(`${order(id)}/approve`, { method: "POST" });
}

export function rejectOrder(id: string, reason: string): Promise<AppOrder> {
  return apiFetch(`${order(id)}/reject`, { method: "POST", json: { reason } });
}
