// POST /api/app-order-requests/:id/reject {reason} (lead) → AppOrder
// Closes the order's merge request; the reason is required and shown to the requester.
// 400 without a reason | 403 requiredRole lead | 404 | 409 already decided.
import { authorize } from "@/lib/portal/guard";
import { json, problem, readJson } from "@/lib/catalog/http";
import { errorResponse } from "@/lib/portal/gitops/http";
import { requestIdOf } from "@/lib/portal/audit";
import { rejectBodySchema } from "@/lib/portal/app-orders/model";
import { rejectOrder } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";

export const dynamic = "force-dynamic";

export async function POST(request: Request, context: { params: Promise<{ id: string }> }) {
  const auth = await authorize(request, "lead");
  if (!auth.ok) return auth.response;
  const { id } = await context.params;
  const body = await readJson(request);
  if (!body.ok) return body.response;
  const parsed = rejectBodySchema.safeParse(body.body ?? {});
  if (!parsed.success) {
    return problem(400, parsed.error.issues[0]?.message ?? "invalid-request", { issues: parsed.error.issues.map((i) => ({ path: i.path.join(".") || "reason", message: i.message })) });
  }
  try {
    return json(await rejectOrder(await getAppOrderDeps(), id, parsed.data.reason, { id: auth.user.id, name: auth.user.name, email: auth.user.email, requestId: requestIdOf(request) }));
  } catch (e) {
    return errorResponse(e);
  }
}
