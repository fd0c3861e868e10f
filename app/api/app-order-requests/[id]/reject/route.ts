// POST /api/app-order-requests/:id/reject {reason} (lead) → AppOrder
// Closes the order's merge request; the reason is required and shown to the requester.
// 400 without a reason | 403 requiredRole lead | 404 | 409 already decided.
import { AppOrder, RejectRequest } from "@/lib/portal/contracts/app-orders";
import { z } from "zod";
import { requestIdOf } from "@/lib/portal/audit-store";
import { rejectOrder } from "@/lib/portal/app-orders/order-decisions";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "Rejected: the order", schema: AppOrder } }, errors: ["not-found", "order-decided", ...GITOPS_FAILURES] },
  role: "lead",
  params: z.object({ id: z.string() }),
  body: z.preprocess((v) => v ?? {}, RejectRequest),
  handler: async ({ request, user, params: { id }, body, services }) =>
    json(await rejectOrder(await services.appOrders(), id, body.reason, { id: user.id, name: user.name, email: user.email, requestId: requestIdOf(request) })),
});
