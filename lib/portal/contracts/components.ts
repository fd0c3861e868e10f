// The contract of /api/components…: what each route answers, read by the route (json() is typed against
// it), the OpenAPI document and the catalog UI (components/catalog/api.ts). zod only: browser code imports it.
import { z } from "zod";
import { componentSchema } from "@/lib/catalog/schema";
import { ComponentGraph, ComponentRelations, GRAPH_DEPTH_MAX, GRAPH_DIRECTIONS } from "@/lib/catalog/relation-schema";
import { MergeRequest } from "./shared";

/** GET /api/components/{name}: the record on show, its YAML and ETag, and what the caller may do. */
export const ComponentAnswer = z.object({
  name: z.string(),
  file: z.string().describe("Relative to the config repository"),
  component: componentSchema,
  etag: z.string(),
  stale: z.boolean().describe("The file broke after this version loaded; staleReason says why"),
  staleReason: z.string().nullable(),
  yaml: z.string(),
  favorite: z.boolean(),
  canCommit: z.boolean().describe("An edit by the caller commits (operators, the component's owners); otherwise it is proposed as a merge request"),
  relations: ComponentRelations.describe("Its system, what it depends on and what uses it, its APIs, its blast radius, and the references that do not resolve (warnings)"),
});
export type ComponentAnswer = z.infer<typeof ComponentAnswer>;

/** PUT /api/components/{name}: the whole record (the catalog validates it: 422 invalid-record names each problem). */
export const ComponentReplace = componentSchema;
/** PATCH /api/components/{name}: a JSON merge patch of the record (null removes a key); the result is validated as a record. */
export const ComponentMergePatch = z.record(z.string(), z.unknown()).describe("A JSON merge patch (RFC 7396) of the record");

/** PUT/PATCH /api/components/{name} 200: committed. */
export const CommittedAnswer = z.object({
  name: z.string(),
  file: z.string(),
  component: componentSchema,
  etag: z.string(),
  stale: z.boolean(),
  yaml: z.string(),
  changed: z.boolean().describe("False when the record was already so (no commit)"),
  commit: z.string().nullable(),
  favorite: z.boolean(),
});
export type CommittedAnswer = z.infer<typeof CommittedAnswer>;

/** PUT/PATCH /api/components/{name} 202: proposed as a merge request; the record is unchanged until it is merged. */
export const ProposalAnswer = z.object({
  name: z.string(),
  file: z.string(),
  mergeRequest: MergeRequest,
  reviewUrl: z.string().describe("The portal page of the review"),
  component: componentSchema.describe("The record as committed (unchanged until the request is merged)"),
  etag: z.string(),
  proposed: componentSchema.describe("The record as proposed"),
  proposedYaml: z.string(),
});
export type ProposalAnswer = z.infer<typeof ProposalAnswer>;

/** POST and DELETE /api/components/{name}/favorite. */
export const FavoriteAnswer = z.object({ name: z.string(), favorite: z.boolean(), changed: z.boolean().describe("False when it already was so") });
export type FavoriteAnswer = z.infer<typeof FavoriteAnswer>;

const ListItem = z.object({
  name: z.string(),
  file: z.string(),
  stale: z.boolean(),
  favorite: z.boolean(),
  component: componentSchema,
});
const ListedItem = ListItem.extend({ level: z.string().nullable().describe("Its scorecard level under the rules in force (null below the lowest level)") });
const Counts = z.record(z.string(), z.number());
/** GET /api/components: one page of the list, with facet counts over the other filters. */
export const ComponentList = z.object({
  items: z.array(ListedItem),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  pages: z.number().int(),
  counts: z.object({
    kind: Counts,
    environment: Counts,
    group: Counts,
    owner: Counts,
    dependency: Counts,
    all: z.number().int().describe("Components in the catalog"),
    matching: z.number().int().describe("Components matching the query (= total)"),
    errors: z.number().int().describe("Files that failed to load"),
    stale: z.number().int().describe("Components shown from their last valid version"),
    favorites: z.number().int().describe("The caller's favorites"),
  }),
});
export type ComponentList = z.infer<typeof ComponentList>;

/** GET /api/components/favorites: the caller's favorite names, and the records that still exist. */
export const FavoriteList = z.object({ names: z.array(z.string()), items: z.array(ListItem), total: z.number().int() });
export type FavoriteList = z.infer<typeof FavoriteList>;

/** GET /api/components/{name}/graph: how far and which way from the component. */
export const ComponentGraphQuery = z.object({
  depth: z.coerce
    .number({ error: `depth is a number of hops, 1 to ${GRAPH_DEPTH_MAX}` })
    .int(`depth is a whole number of hops, 1 to ${GRAPH_DEPTH_MAX}`)
    .min(1, `depth is at least 1 hop`)
    .max(GRAPH_DEPTH_MAX, `depth is at most ${GRAPH_DEPTH_MAX} hops: a deeper graph is too large to draw or read`)
    .default(1)
    .describe(`Hops from the component, 1 to ${GRAPH_DEPTH_MAX}`),
  direction: z.enum(GRAPH_DIRECTIONS, { error: `direction is one of ${GRAPH_DIRECTIONS.join(", ")}` }).default("both").describe("down: what it depends on; up: what depends on it; both"),
});
/** GET /api/components/{name}/graph: the nodes and edges of its neighbourhood (bounded). */
export const ComponentGraphAnswer = ComponentGraph;
export type ComponentGraphAnswer = z.infer<typeof ComponentGraphAnswer>;
