// GET /api/app-order-requests/open-merge-requests → {items: [{order, mergeRequest}]}
// Orders waiting for a decision with the config repository's merge request (null when it is no longer open).
import { authorize } from "@/lib/portal/guard";
import { json } from "@/lib/catalog/http";
import { errorResponse } from "@/lib/portal/gitops/http";
import { openOrderMergeRequests } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  try {
    return json({ items: await openOrderMergeRequests(await getAppOrderDeps()) });
  } catch (e) {
    return errorResponse(e);
  }
}
