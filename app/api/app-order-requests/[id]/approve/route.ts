// POST /api/app-order-requests/:id/approve (lead) → {order, inCatalog}
// Merges the order's merge request; the component appears in the catalog.
// 403 requiredRole lead | 403 own order | 404 | 409 already decided or being decided by another lead.
import { ApproveAnswer } from "@/lib/portal/contracts/app-orders";
import { z } from "zod";
import { requestIdOf } from "@/lib/portal/audit-store";
import { approveOrder } from "@/lib/portal/app-orders/order-decisions";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const POST = route({
  doc: { responses: { 200: { description: "Approved: the order, and whether the catalog shows it yet", schema: ApproveAnswer } }, errors: ["not-found", "own-order", "order-decided", "not-mergeable", ...GITOPS_FAILURES] },
  role: "lead",
  params: z.object({ id: z.string() }),
  handler: async ({ request, user, params: { id }, services }) =>
    json(await approveOrder(await services.appOrders(), id, { id: user.id, name: user.name, email: user.email, requestId: requestIdOf(request) })),
});
