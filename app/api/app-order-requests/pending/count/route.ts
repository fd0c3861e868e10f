// GET /api/app-order-requests/pending/count → {count} (the badge in the navigation polls it)
import { pendingCount } from "@/lib/portal/app-orders/orders";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  handler: async ({ services }) => json({ count: await pendingCount(await services.appOrders()) }),
});
