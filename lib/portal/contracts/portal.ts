// The contract of the portal's own routes: the root index, the form options, the cache refresh, sign-out. zod only.
import { z } from "zod";
import { componentSchema } from "@/lib/catalog/schema";

const CatalogError = z.object({ file: z.string(), path: z.string().describe('Field path inside the record; "" when the whole file is at fault'), message: z.string() });

/** GET /api */
export const RootIndex = z.object({
  service: z.string(),
  configDir: z.string(),
  endpoints: z.record(z.string(), z.object({ method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]), path: z.string(), description: z.string() })),
  components: z.array(componentSchema),
  errors: z.array(CatalogError),
});

/** GET /api/options: the values forms need. */
export const FormOptions = z.object({
  kinds: z.array(z.string()).readonly(),
  environments: z.array(z.string()).readonly(),
  platforms: z.array(z.string()).readonly(),
  dependencyFlags: z.array(z.string()).readonly(),
  libraryModels: z.array(z.string()).readonly(),
  owners: z.array(z.string()),
  groups: z.array(z.string()),
  registries: z.array(z.string()),
  publishStrategies: z.array(z.string()),
  visibilities: z.array(z.string()),
  apiVersions: z.array(z.string()),
});
export type FormOptions = z.infer<typeof FormOptions>;

/** POST /api/cache/refresh: the whole catalog re-read, or (?name=) one record. */
export const RefreshAnswer = z.union([
  z.object({
    components: z.number().int(),
    errors: z.array(CatalogError),
    errorCount: z.number().int(),
    stale: z.number().int(),
    files: z.number().int(),
    durationMs: z.number(),
    pull: z.object({ ok: z.boolean(), message: z.string() }).optional(),
    changes: z.object({ changed: z.number().int(), added: z.number().int(), removed: z.number().int(), errorsBefore: z.number().int(), errorsAfter: z.number().int() }),
  }),
  z.object({
    name: z.string(),
    stale: z.boolean(),
    removed: z.boolean(),
    errors: z.array(CatalogError),
    changed: z.boolean(),
    components: z.number().int(),
    errorCount: z.number().int(),
  }),
]);
export type RefreshAnswer = z.infer<typeof RefreshAnswer>;

/** POST /api/auth/logout */
export const SignedOut = z.object({ ok: z.literal(true), signedIn: z.literal(false) });

/** GET /api/openapi.json: an OpenAPI 3.1 document (its own schema is OpenAPI's). */
export const OpenApiDocument = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string(), version: z.string() }), paths: z.record(z.string(), z.unknown()).optional() });
