// GET /api/options — the values forms need: kinds, environments, platforms, dependency flags, library
// models, and the owners, groups, registries, publish strategies and visibilities in use.
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  handler: async ({ services }) => json((await services.catalog()).options()),
});
