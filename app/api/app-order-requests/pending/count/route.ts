// GET /api/app-order-requests/pending/count → {count} (the badge in the navigation polls it)
import { authorize } from "@/lib/portal/guard";
import { json } from "@/lib/catalog/http";
import { errorResponse } from "@/lib/portal/gitops/http";
import { pendingCount } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  try {
    return json({ count: await pendingCount(await getAppOrderDeps()) });
  } catch (e) {
    return errorResponse(e);
  }
}
