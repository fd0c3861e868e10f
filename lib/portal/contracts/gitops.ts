// The contract of a component's GitOps routes (config, releases, open merge requests) and of the import
// routes: read by the routes, the OpenAPI document and components/gitops/api.ts. zod only.
import { z } from "zod";
import { componentSchema, COMPONENT_KINDS } from "@/lib/catalog/schema";
import { configPatchSchema } from "@/lib/portal/gitops/config-values";
import { ConfigValues, MergeRequest } from "./shared";

export const ConfigView = z.enum(["current", "persistent"], { error: "view must be current or persistent" });
export type ConfigView = z.infer<typeof ConfigView>;

/** GET /api/components/{name}/config */
export const ConfigAnswer = z.object({
  name: z.string(),
  view: ConfigView,
  file: z.string().describe("Where the persistent values live in the config repository ({environment} is replaced)"),
  environments: z.array(
    z.object({
      environment: z.string(),
      values: ConfigValues,
      drift: z.array(z.string()).describe("Keys whose current value differs from the persistent one"),
      source: z.enum(["release", "edit"]).nullable(),
      updatedBy: z.string().nullable(),
      updatedAt: z.string().nullable(),
    }),
  ),
});
export type ConfigAnswer = z.infer<typeof ConfigAnswer>;

/** POST /api/components/{name}/config: one environment's values (null removes a key); the server validates them. */
export const ConfigRequest = z.strictObject({ environment: z.string(), values: z.unknown(), view: ConfigView.optional() });
/** What the UI sends as ConfigRequest. */
export type ConfigChange = { environment: string; values: z.infer<typeof configPatchSchema>; view?: ConfigView };

/** POST /api/components/{name}/config/bulk: all or nothing. */
export const ConfigBulkRequest = z.strictObject({
  updates: z.array(z.strictObject({ environment: z.unknown(), values: z.unknown() })).min(1, "name at least one update").max(20),
  view: ConfigView.optional(),
});
export type ConfigBulkChange = { updates: Array<{ environment: string; values: z.infer<typeof configPatchSchema> }>; view?: ConfigView };

const Environments = z.record(z.string(), ConfigValues);
/** What a config write answers: committed (200), proposed (202), or set live (view current, 200). */
export const ConfigWriteResult = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("commit"), view: z.literal("persistent"), commit: z.string().nullable(), changed: z.boolean(), environments: Environments }),
  z.object({ mode: z.literal("merge_request"), view: z.literal("persistent"), mergeRequest: MergeRequest, environments: Environments }),
  z.object({ mode: z.literal("current"), view: z.literal("current"), changed: z.boolean(), environments: Environments }),
]);
export type ConfigWriteResult = z.infer<typeof ConfigWriteResult>;

export const ReleaseEnvironment = z.enum(["staging", "production"], { error: "environment must be staging or production" });
export type ReleaseEnvironment = z.infer<typeof ReleaseEnvironment>;

export const Release = z.object({
  id: z.string(),
  component: z.string(),
  environment: ReleaseEnvironment,
  version: z.string(),
  tag: z.string(),
  commitSha: z.string(),
  sourceRef: z.string(),
  releaseType: z.enum(["major", "minor", "promote"]),
  releasedBy: z.string(),
  releasedAt: z.string(),
  config: ConfigValues,
  configCommit: z.string().nullable(),
});
export type Release = z.infer<typeof Release>;

/** GET /api/components/{name}/releases */
export const ReleasesAnswer = z.object({
  name: z.string(),
  environment: ReleaseEnvironment.nullable(),
  current: z.string().nullable().describe("The version now released to the environment asked for"),
  releases: z.array(Release),
});
export type ReleasesAnswer = z.infer<typeof ReleasesAnswer>;

/** POST /api/components/{name}/releases */
export const ReleaseRequest = z.strictObject({
  environment: ReleaseEnvironment,
  sourceRef: z.string().trim().min(1).max(200).optional(),
  releaseType: z.enum(["major", "minor"], { error: "releaseType must be major or minor" }).optional(),
});
export type ReleaseRequest = z.input<typeof ReleaseRequest>;

/** GET /api/components/{name}/open-merge-requests */
export const ComponentMergeRequests = z.object({
  name: z.string(),
  repository: z.string(),
  mergeRequests: z.array(MergeRequest.extend({ source: z.enum(["component", "config"]) })),
  errors: z.array(z.string()).describe("Parts that could not be read (e.g. the repository does not exist in source control)"),
});
export type ComponentMergeRequests = z.infer<typeof ComponentMergeRequests>;

export const Owner = z.object({ path: z.string().describe('Full namespace path, e.g. "commerce/backend"'), name: z.string(), kind: z.enum(["group", "user"]) });
export type Owner = z.infer<typeof Owner>;
/** GET /api/import/owners */
export const OwnerList = z.object({ owners: z.array(Owner) });

export const ImportableRepository = z.object({
  path: z.string().describe("<group>/<project>"),
  name: z.string(),
  owner: z.string(),
  description: z.string().nullable(),
  defaultBranch: z.string(),
  webUrl: z.string().nullable(),
  lastActivityAt: z.string().nullable(),
  inCatalog: z.string().nullable().describe("The catalog component of this repository, if any"),
});
export type ImportableRepository = z.infer<typeof ImportableRepository>;
/** GET /api/import/repositories */
export const RepositoryPage = z.object({ items: z.array(ImportableRepository), nextPage: z.number().int().nullable().describe("null on the last page") });
export type RepositoryPage = z.infer<typeof RepositoryPage>;

const repoPath = z.string().regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/, "a repository is <group>/<project>");
export const ImportChoice = z.strictObject({ path: repoPath, kind: z.enum(COMPONENT_KINDS, { error: `kind must be one of ${COMPONENT_KINDS.join(", ")}` }).optional() });
export type ImportChoice = z.infer<typeof ImportChoice>;
/** POST /api/import/components */
export const IMPORT_FORMATS = ["inferred", "backstage"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
export const ImportRequest = z
  .strictObject({
    repositories: z
      .array(z.union([repoPath, ImportChoice]))
      .min(1, "name at least one repository")
      .max(50, "at most 50 repositories at once"),
    dryRun: z.boolean().optional(),
    format: z
      .enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(", ")}` })
      .optional()
      .describe('"inferred" (the default): one record per repository, its kind inferred from the contents. "backstage": the records of the Backstage entities in each repository\'s catalog-info.yaml, always proposed as one merge request'),
  })
  .refine((b) => b.format !== "backstage" || b.repositories.every((r) => typeof r === "string" || r.kind === undefined), {
    message: "a Backstage import takes each kind from spec.type: name the repositories without a kind",
    path: ["repositories"],
  });

export const ImportResult = z.object({
  repository: z.string(),
  status: z.enum(["imported", "proposed", "exists", "failed", "ready"]).describe('"ready" only in a dry run: the record that would be written'),
  name: z.string().nullable(),
  kind: z.string().nullable(),
  inferredKind: z.string().nullable(),
  reasons: z.array(z.string()),
  message: z.string(),
  component: componentSchema.optional(),
  entity: z.string().optional().describe("The Backstage entity the record comes from, e.g. component:default/checkout (Backstage imports)"),
});
export type ImportResult = z.infer<typeof ImportResult>;
/** What POST /api/import/components answers: 200 nothing written, 201 committed, 202 proposed. */
export const UnmappedField = z.object({
  repository: z.string(),
  entity: z.string().describe("The Backstage entity (component:default/checkout) or the file (catalog-info.yaml, document 2)"),
  field: z.string().describe('The field that did not map, e.g. spec.subcomponentOf; "" for the whole entity or file'),
  message: z.string().describe("What happened to it, in words"),
});
export type UnmappedField = z.infer<typeof UnmappedField>;
export const ImportAnswer = z.object({
  results: z.array(ImportResult),
  commit: z.string().nullable(),
  mergeRequest: MergeRequest.nullable(),
  unmapped: z.array(UnmappedField).optional().describe("Backstage imports: what did not map, per entity and field"),
});
export type ImportAnswer = z.infer<typeof ImportAnswer>;
