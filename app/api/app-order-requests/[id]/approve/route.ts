// POST /api/app-order-requests/:id/approve (lead) → {order, inCatalog}
// Merges the order's merge request; the component appears in the catalog.
// 403 requiredRole lead | 403 own order | 404 | 409 already decided or being decided by another lead.
import { authorize } from "@/lib/portal/guard";
import { json } from "@/lib/catalog/http";
import { errorResponse } from "@/lib/portal/gitops/http";
import { requestIdOf } from "@/lib/portal/audit";
import { approveOrder } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";

export const dynamic = "force-dynamic";

export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const auth = await authorize(request, "lead");
  if (!auth.ok) return auth.response;
  const { id } = await context.params;
  try {
    return json(await approveOrder(await getAppOrderDeps(), id, { id: auth.user.id, name: auth.user.name, email: auth.user.email, requestId: requestIdOf(request) }));
  } catch (e) {
    return errorResponse(e);
  }
}
