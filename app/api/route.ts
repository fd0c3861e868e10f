// GET /api — the root index: {service, configDir, endpoints, components, errors}.
import { authorize } from "@/lib/portal/guard";
import { getCatalog } from "@/lib/catalog/service";
import { PORTAL_ENDPOINTS } from "@/lib/catalog/endpoints";
import { json } from "@/lib/catalog/http";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const auth = await authorize(request);
  if (!auth.ok) return auth.response;
  const catalog = await getCatalog();
  return json({
    service: "platform-portal",
    configDir: catalog.configDir,
    endpoints: PORTAL_ENDPOINTS,
    components: catalog.entries().map((e) => e.component),
    errors: catalog.errors,
  });
}
