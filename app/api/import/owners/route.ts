// GET /api/import/owners → {owners: [{path, name, kind}]}
import { OwnerList } from "@/lib/portal/contracts/gitops";
import { listOwners } from "@/lib/portal/gitops/import";
import { json, route, SOURCE_CONTROL_FAILURES } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "Owners that can be assigned", schema: OwnerList } }, errors: [...SOURCE_CONTROL_FAILURES] },
  handler: async ({ services }) => json({ owners: await listOwners(await services.gitops()) }),
});
