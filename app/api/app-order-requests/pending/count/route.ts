// GET /api/app-order-requests/pending/count → {count} (the badge in the navigation polls it)
import { pendingCount } from "@/lib/portal/app-orders/service";
import { getAppOrderDeps } from "@/lib/portal/app-orders/wiring";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  handler: async () => json({ count: await pendingCount(await getAppOrderDeps()) }),
});
