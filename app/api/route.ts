// GET /api — the root index: {service, configDir, endpoints, components, errors}.
import { RootIndex } from "@/lib/portal/contracts/portal";
import { PORTAL_ENDPOINTS } from "@/lib/catalog/endpoints";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "service, configDir, endpoints (this document is endpoints.openapi), components, errors", schema: RootIndex } } },
  handler: async ({ services }) => {
    const catalog = await services.catalog();
    return json({
      service: "platform-portal",
      configDir: catalog.configDir,
      endpoints: PORTAL_ENDPOINTS,
      components: catalog.entries().map((e) => e.component),
      errors: catalog.errors,
    });
  },
});
