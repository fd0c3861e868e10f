// GET /api/app-order-requests/open-merge-requests → {items: [{order, mergeRequest}]}
// Orders waiting for a decision with the config repository's merge request (null when it is no longer open).
import { OrderMergeRequests } from "@/lib/portal/contracts/app-orders";
import { openOrderMergeRequests } from "@/lib/portal/app-orders/orders";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Orders waiting for a decision, each with its open merge request", schema: OrderMergeRequests } }, errors: [...SOURCE_CONTROL_FAILURES] },
  handler: async ({ services }) => json({ items: await openOrderMergeRequests(await services.appOrders()) }),
});
