// GET  /api/app-order-requests?status=pending|approving|approved|rejected&requester=<user id>|me → {orders: AppOrder[]}
// POST /api/app-order-requests {name, displayName, kind, owners, environments, dependencies?, repoPath, library?, runtime?}
//   → 201 AppOrder (a merge request in the config repository adds the record and its resource requests)
//   422 {issues: [{path, message}]} with record paths; 409 when the name is in the catalog or already ordered.
import { z } from "zod";
import { authorize } from "@/lib/portal/guard";
import { json, problem, readJson } from "@/lib/catalog/http";
import { errorResponse } from "@/lib/portal/gitops/http";
import { requestIdOf } from "@/lib/portal/audit";
import { ORDER_STATUSES } from "@/lib/portal/app-orders/model";
import { createOrder, listOrders } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";

export const dynamic = "force-dynamic";

const querySchema = z.strictObject({
  status: z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(", ")}` }).optional(),
  requester: z.string().trim().min(1).max(200).optional(),
});

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return problem(400, "invalid-request", { issues: query.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
  const requester = query.data.requester === "me" ? auth.user.id : query.data.requester;
  try {
    const deps = await getAppOrderDeps();
    return json({ orders: await listOrders(deps, { status: query.data.status, requester }) });
  } catch (e) {
    return errorResponse(e);
  }
}

export async function POST(request: Request) {
  const auth = await authorize(request, "engineer");
  if (!auth.ok) return auth.response;
  const body = await readJson(request);
  if (!body.ok) return body.response;
  try {
    const order = await createOrder(await getAppOrderDeps(), body.body, { id: auth.user.id, name: auth.user.name, email: auth.user.email, requestId: requestIdOf(request) });
    return json(order, { status: 201 });
  } catch (e) {
    return errorResponse(e);
  }
}
