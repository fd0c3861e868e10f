// GET /api — the root index: {service, configDir, endpoints, components, errors}.
import { getCatalog } from "@/lib/portal/services";
import { PORTAL_ENDPOINTS } from "@/lib/catalog/endpoints";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  handler: async () => {
    const catalog = await getCatalog();
    return json({
      service: "platform-portal",
      configDir: catalog.configDir,
      endpoints: PORTAL_ENDPOINTS,
      components: catalog.entries().map((e) => e.component),
      errors: catalog.errors,
    });
  },
});
