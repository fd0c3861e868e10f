// Answers of the portal's API as the component tests' fake fetch returns them.
import type { AppOrder } from "@/lib/portal/app-orders/model";

export function appOrder(patch: Partial<AppOrder> = {}): AppOrder {
  const name = patch.name ?? "ledger";
  return {
    id: `order-${name}`,
    name,
    displayName: "Ledger",
    kind: "service",
    status: "pending",
    requester: "eng1",
    requesterName: "Eng One",
    component: { apiVersion: "platform.example.com/v1alpha1", kind: "Component", metadata: { name, displayName: "Ledger" }, spec: { kind: "service", environments: ["dev"] } },
    resources: [{ environment: "dev", resource: "mongo" }],
    mergeRequest: { repository: "portal/config", iid: 7, webUrl: null, sourceBranch: `portal/order/${name}`, mergeCommitSha: null },
    decidedBy: null,
    decidedAt: null,
    reason: null,
    createdAt: "2026-11-20T10:00:00Z",
    updatedAt: "2026-11-20T10:00:00Z",
    ...patch,
  };
}
