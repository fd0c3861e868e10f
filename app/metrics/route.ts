// GET /metrics: the portal's Prometheus metrics, to a scraper sending METRICS_TOKEN (outside /api: not
// part of the portal API or its OpenAPI document, and no sign-in).
import { getPortalEnv } from "@/lib/env/portal";
import { metricsResponse } from "@/lib/portal/metrics";

export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return metricsResponse(request, getPortalEnv().METRICS_TOKEN);
}
