// The contract of /api/app-order-requests… and /api/resource-requests: read by the routes, the OpenAPI
// document and components/app-orders/api.ts. The shapes live with the orders' model (zod only).
import { z } from "zod";
import { orderSchema } from "@/lib/portal/app-orders/model";
import { MergeRequest } from "./shared";

export { orderInputSchema as OrderRequest, orderSchema as AppOrder, rejectBodySchema as RejectRequest, resourceRequestListSchema as ResourceRequestList } from "@/lib/portal/app-orders/model";

/** GET /api/app-order-requests */
export const OrderList = z.object({ orders: z.array(orderSchema) });
/** POST /api/app-order-requests/{id}/approve */
export const ApproveAnswer = z.object({ order: orderSchema, inCatalog: z.boolean().describe("The catalog already shows the component") });
export type ApproveAnswer = z.infer<typeof ApproveAnswer>;
/** GET /api/app-order-requests/open-merge-requests */
export const OrderMergeRequests = z.object({ items: z.array(z.object({ order: orderSchema, mergeRequest: MergeRequest.nullable().describe("null once it is no longer open") })) });
export type OrderMergeRequests = z.infer<typeof OrderMergeRequests>;
/** GET /api/app-order-requests/pending/count */
export const PendingCount = z.object({ count: z.number().int() });
