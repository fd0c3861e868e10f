/**
 * What the catalog answers about a component's relations and its graph (relations.ts computes them): zod
 * only, the single source of the types, so the portal's contract (lib/portal/contracts/components.ts) and
 * the browser import it too.
 */
import { z } from "zod";
import { API_TYPES } from "./schema";

/** Longest list of names an answer carries (used by, members, consumers); `total` counts them all. */
export const NAME_LIST_MAX = 100;
/** The graph endpoint's bounds: at most this deep, at most this many nodes (then `truncated`). */
export const GRAPH_DEPTH_MAX = 3;
export const GRAPH_NODES_MAX = 500;
export const GRAPH_DIRECTIONS = ["both", "down", "up"] as const;
export type GraphDirection = (typeof GRAPH_DIRECTIONS)[number];

export const NameList = z.object({
  names: z.array(z.string()).describe(`In name order, at most ${NAME_LIST_MAX}`),
  total: z.number().int().describe("How many there are in all"),
});
export type NameList = z.infer<typeof NameList>;

/** A relation that does not resolve: shown on the component's page and on /catalog/errors; the record still loads. */
export const RelationWarning = z.object({
  name: z.string().describe("The component whose record holds the reference"),
  file: z.string(),
  path: z.string().describe("The field, e.g. spec.dependsOn[1]"),
  message: z.string(),
});
export type RelationWarning = z.infer<typeof RelationWarning>;

export const ComponentRelations = z.object({
  system: z.object({ name: z.string(), members: NameList.describe("The components of the system, this one included") }).nullable(),
  dependsOn: z.array(z.object({ name: z.string(), exists: z.boolean().describe("False: no record has this name (a warning)") })),
  usedBy: NameList.describe("Components whose spec.dependsOn names this one"),
  providesApis: z.array(
    z.object({
      name: z.string(),
      type: z.enum(API_TYPES),
      path: z.string(),
      consumers: NameList.describe("Components whose spec.consumesApis names this API"),
      otherProviders: z.array(z.string()).describe("Other components that say they provide an API of this name (a warning)"),
    }),
  ),
  consumesApis: z.array(z.object({ name: z.string(), providers: z.array(z.string()).describe("Empty: no component provides it (a warning)") })),
  blastRadius: z.number().int().describe("How many components depend on this one, directly or transitively (spec.dependsOn, or consuming an API it provides)"),
  warnings: z.array(RelationWarning),
});
export type ComponentRelations = z.infer<typeof ComponentRelations>;

export const GraphNode = z.object({
  name: z.string(),
  displayName: z.string().nullable().describe("Null for a name no record holds"),
  kind: z.string().nullable(),
  system: z.string().nullable(),
  missing: z.boolean().describe("No record has this name: a dependsOn target that does not exist"),
  distance: z.number().int().describe("Hops from the root"),
});
export const GraphEdge = z.object({
  from: z.string().describe("The component that depends"),
  to: z.string().describe("The component depended on"),
  kind: z.enum(["dependsOn", "consumesApi"]),
  api: z.string().nullable().describe("The API consumed, for consumesApi"),
});
export const ComponentGraph = z.object({
  root: z.string(),
  depth: z.number().int(),
  direction: z.enum(GRAPH_DIRECTIONS),
  nodes: z.array(GraphNode),
  edges: z.array(GraphEdge),
  truncated: z.boolean().describe(`True when the neighbourhood holds more than ${GRAPH_NODES_MAX} nodes: the nearest are answered`),
  blastRadius: z
    .number()
    .int()
    .describe("How many components depend on the root, directly or transitively, at any depth (not bounded by depth or truncated)"),
});
export type GraphNode = z.infer<typeof GraphNode>;
export type GraphEdge = z.infer<typeof GraphEdge>;
export type ComponentGraph = z.infer<typeof ComponentGraph>;
