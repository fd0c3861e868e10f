// GET /api/resource-requests?component=&environment=&resource=mongo|redis|pubsub|gcpSecrets&status=requested|provisioned-by-merge|rejected
// → ResourceRequestList (lib/portal/app-orders/model.ts: resourceRequestListSchema documents the shape):
//   {items: [{id, component, environment, resource, status, source, orderId, requestedBy, requestedAt, mergeRequest, reason}], total, counts}
import { ResourceRequestList } from "@/lib/portal/contracts/app-orders";
import { resourceFilterSchema } from "@/lib/portal/app-orders/model";
import { listResourceRequests } from "@/lib/portal/app-orders/resource-requests";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Resource requests matching the filters, with counts", schema: ResourceRequestList } } },
  query: resourceFilterSchema,
  handler: async ({ query, services }) => json(await listResourceRequests(await services.appOrders(), query)),
});
