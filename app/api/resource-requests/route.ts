// GET /api/resource-requests?component=&environment=&resource=mongo|redis|pubsub|gcpSecrets&status=requested|provisioned-by-merge|rejected
// → ResourceRequestList (lib/portal/app-orders/model.ts: resourceRequestListSchema documents the shape):
//   {items: [{id, component, environment, resource, status, source, orderId, requestedBy, requestedAt, mergeRequest, reason}], total, counts}
import { authorize } from "@/lib/portal/guard";
import { json, problem } from "@/lib/catalog/http";
import { errorResponse } from "@/lib/portal/gitops/http";
import { resourceFilterSchema } from "@/lib/portal/app-orders/model";
import { listResourceRequests } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const filter = resourceFilterSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!filter.success) return problem(400, "invalid-request", { issues: filter.error.issues.map((i) => ({ path: i.path.join("."), message: i.message })) });
  try {
    return json(await listResourceRequests(await getAppOrderDeps(), filter.data));
  } catch (e) {
    return errorResponse(e);
  }
}
