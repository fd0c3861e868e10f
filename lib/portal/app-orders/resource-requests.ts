/** Resource requests: what approved components carry in the catalog, and what pending or rejected orders asked for. */
import "server-only";
import { desc } from "drizzle-orm";
import { appOrders } from "../db/schema/app-orders";
import { RESOURCE_STATUSES, resourceFilterSchema, resourcesOf, type AppOrder, type ResourceFilter, type ResourceRequest, type ResourceRequestList } from "./model";
import { orderOf, type AppOrderDeps } from "./orders";

export async function listResourceRequests(deps: Pick<AppOrderDeps, "db" | "catalog">, rawFilter: ResourceFilter = {}): Promise<ResourceRequestList> {
  const filter = resourceFilterSchema.parse(rawFilter);
  const orders = (await deps.db.select().from(appOrders).orderBy(desc(appOrders.createdAt))).map(orderOf);
  const approvedByName = new Map<string, AppOrder>();
  for (const o of orders) if (o.status === "approved" && !approvedByName.has(o.name)) approvedByName.set(o.name, o);
  const items: ResourceRequest[] = [];
  const idOf = (component: string, env: string | null, res: string) => `${component}/${env ?? "-"}/${res}`;
  const mrOf = (o: AppOrder | undefined) => (o?.mergeRequest ? { iid: o.mergeRequest.iid, webUrl: o.mergeRequest.webUrl } : null);

  for (const entry of deps.catalog.entries()) {
    const order = approvedByName.get(entry.name);
    for (const r of resourcesOf(entry.component)) {
      items.push({
        id: idOf(entry.name, r.environment, r.resource),
        component: entry.name,
        environment: r.environment,
        resource: r.resource,
        status: "provisioned-by-merge",
        source: "component",
        orderId: order?.id ?? null,
        requestedBy: order?.requester ?? null,
        requestedAt: order?.createdAt ?? null,
        mergeRequest: mrOf(order),
        reason: null,
      });
    }
  }
  for (const o of orders) {
    if (o.status === "approved" && (deps.catalog.get(o.name) || approvedByName.get(o.name) !== o)) continue;
    const status = o.status === "rejected" ? "rejected" : o.status === "approved" ? "provisioned-by-merge" : "requested";
    for (const r of o.resources) {
      items.push({
        id: `${idOf(o.name, r.environment, r.resource)}#${o.id}`,
        component: o.name,
        environment: r.environment,
        resource: r.resource,
        status,
        source: "order",
        orderId: o.id,
        requestedBy: o.requester,
        requestedAt: o.createdAt,
        mergeRequest: mrOf(o),
        reason: o.status === "rejected" ? o.reason : null,
      });
    }
  }
  const filtered = items.filter(
    (i) =>
      (!filter.component || i.component === filter.component) &&
      (!filter.environment || i.environment === filter.environment) &&
      (!filter.resource || i.resource === filter.resource) &&
      (!filter.status || i.status === filter.status),
  );
  filtered.sort((a, b) => a.component.localeCompare(b.component) || (a.environment ?? "").localeCompare(b.environment ?? "") || a.resource.localeCompare(b.resource));
  const counts = Object.fromEntries(RESOURCE_STATUSES.map((s) => [s, filtered.filter((i) => i.status === s).length])) as ResourceRequestList["counts"];
  return { items: filtered, total: filtered.length, counts };
}
