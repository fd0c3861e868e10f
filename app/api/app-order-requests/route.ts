// GET  /api/app-order-requests?status=pending|approving|approved|rejected&requester=<user id>|me → {orders: AppOrder[]}
// POST /api/app-order-requests {name, displayName, kind, owners, environments, dependencies?, repoPath, library?, runtime?}
//   → 201 AppOrder (a merge request in the config repository adds the record and its resource requests)
//   400 invalid-request for a field that is unknown or of the wrong type; 422 invalid-record {issues: [{path: [..], message}]}
//   with record paths; 409 name-taken when the name is in the catalog or already ordered.
import { AppOrder, OrderList, OrderRequest } from "@/lib/portal/contracts/app-orders";
import { z } from "zod";
import { requestIdOf } from "@/lib/portal/audit-store";
import { ORDER_STATUSES } from "@/lib/portal/app-orders/model";
import { createOrder, listOrders } from "@/lib/portal/app-orders/orders";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

const querySchema = z.strictObject({
  status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(", ")}` }).optional(),
  requester: z.string().trim().min(1).max(200).optional(),
});

export const GET = route({
  doc: { responses: { 200: { description: "The orders, newest first", schema: OrderList } } },
  query: querySchema,
  handler: async ({ user, query, services }) => {
    const requester = query.requester === "me" ? user.id : query.requester;
    return json({ orders: await listOrders(await services.appOrders(), { status: query.status, requester }) });
  },
});

export const POST = route({
  doc: { responses: { 201: { description: "The order, with the merge request that adds its record", schema: AppOrder } }, errors: ["invalid-record", "name-taken", ...GITOPS_FAILURES] },
  role: "engineer",
  // Its shape here (400 naming an unknown or mistyped field); the record it makes is validated by the
  // app-order service (422 with the record's paths).
  body: OrderRequest,
  handler: async ({ request, user, body, services }) => {
    const order = await createOrder(await services.appOrders(), body, { id: user.id, name: user.name, email: user.email, requestId: requestIdOf(request) });
    return json(order, { status: 201 });
  },
});
