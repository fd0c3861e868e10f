// GET /api/app-order-requests/pending/count → {count} (the badge in the navigation polls it)
import { PendingCount } from "@/lib/portal/contracts/app-orders";
import { pendingCount } from "@/lib/portal/app-orders/orders";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Orders waiting for a lead", schema: PendingCount } } },
  handler: async ({ services }) => json({ count: await pendingCount(await services.appOrders()) }),
});
