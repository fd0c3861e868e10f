// GET /api/openapi.json: this API's OpenAPI document, built from the routes' own specs (./document.ts).
import { OpenApiDocument } from "@/lib/portal/contracts/portal";
import { json, route, type RouteHandler } from "@/lib/portal/http";
import { portalOpenApiDocument } from "./document";

export const dynamic = "force-dynamic";

export const GET: RouteHandler = route({
  doc: { responses: { 200: { description: "The OpenAPI 3.1 document of the portal API", schema: OpenApiDocument } } },
  handler: async () => json(await portalOpenApiDocument({ path: "/api/openapi.json", module: { GET } })),
});
