// GET /api/options — the values forms need: kinds, environments, platforms, dependency flags, library
// models, and the owners, groups, registries, publish strategies and visibilities in use.
import { FormOptions } from "@/lib/portal/contracts/portal";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The values the forms need", schema: FormOptions } } },
  handler: async ({ services }) => json((await services.catalog()).options()),
});
