// Browser-side calls of the app-order API (same origin; the session cookie authenticates).
import type { AppOrder } from "@/lib/portal/app-orders/model";
import type { FieldIssue } from "@/lib/catalog/schema";

export class OrderApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: FieldIssue[] = [],
  ) {
    super(message);
  }
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, headers: { Accept: "application/json", ...(init?.body ? { "Content-Type": "application/json" } : {}), ...init?.headers } });
  const body = (await res.json().catch(() => ({}))) as { message?: string; issues?: FieldIssue[] };
  if (!res.ok) throw new OrderApiError(res.status, body.message ?? `HTTP ${res.status}`, body.issues ?? []);
  return body as T;
}

export const orderKeys = {
  all: ["app-orders"] as const,
  list: (filter: string) => ["app-orders", "list", filter] as const,
  pendingCount: ["app-orders", "pending-count"] as const,
};

export function fetchOrders(query: string): Promise<{ orders: AppOrder[] }> {
  return call(`/api/app-order-requests${query ? `?${query}` : ""}`);
}

export function fetchPendingCount(): Promise<{ count: number }> {
  return call("/api/app-order-requests/pending/count");
}

export function submitOrder(body: unknown): Promise<AppOrder> {
  return call("/api/app-order-requests", { method: "POST", body: JSON.stringify(body) });
}

export function approveOrder(id: string): Promise<{ order: AppOrder; inCatalog: boolean }> {
  return call(`/api/app-order-requests/${encodeURIComponent(id)}/approve`, { method: "POST" });
}

export function rejectOrder(id: string, reason: string): Promise<AppOrder> {
  return call(`/api/app-order-requests/${encodeURIComponent(id)}/reject`, { method: "POST", body: JSON.stringify({ reason }) });
}
