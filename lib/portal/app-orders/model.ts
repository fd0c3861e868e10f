/**
 * App orders: the shapes shared by the server and the order wizard (client-safe: zod and yaml only).
 *
 * An order is the form of the wizard (name, display name, kind, owners, environments, dependencies,
 * repository path, library settings); buildRecord turns it into a Component record, which is validated
 * with the catalog's own schema (validateComponent), so an order can never add a record the catalog
 * would refuse. Resource requests are the dependency flags times the environments.
 */
import { z } from "zod";
import { stringify } from "yaml";
import { DEPENDENCY_FLAGS, validateComponent, type Component, type DependencyFlag, type FieldIssue } from "../../catalog/schema";

export const DEFAULT_API_VERSION = "platform.example.com/v1alpha1";

export const ORDER_STATUSES = ["pending", "approving", "approved", "rejected"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * POST /api/app-order-requests. Its shape only (an unknown key is refused, naming it); the values are
 * checked on the record built from it, so those problems are reported with the record's field path
 * (spec.owners[0].user, …).
 */
export const orderInputSchema = z.strictObject({
  name: z.string({ error: "name must be text" }),
  displayName: z.string({ error: "displayName must be text" }),
  kind: z.string({ error: "kind must be text" }),
  owners: z.array(z.strictObject({ user: z.string(), group: z.string().optional() }), { error: "owners must be a list of {user, group?}" }),
  environments: z.array(z.string(), { error: "environments must be a list" }),
  dependencies: z.partialRecord(z.enum(DEPENDENCY_FLAGS), z.boolean()).optional(),
  /** <group>/<project> */
  repoPath: z.string({ error: "repoPath must be text" }),
  library: z.unknown().optional(),
  runtime: z.unknown().optional(),
});
export type OrderInput = z.infer<typeof orderInputSchema>;

/** Maps a record path back to the wizard's field, so the form shows the message next to the right input. */
export function formFieldOf(recordPath: string): string {
  if (recordPath === "metadata.name") return "name";
  if (recordPath === "metadata.displayName") return "displayName";
  if (recordPath === "spec.kind") return "kind";
  if (recordPath === "spec.repo.path" || recordPath.startsWith("spec.repo")) return "repoPath";
  const m = /^spec\.(owners|environments|dependencies|library|runtime)(.*)$/.exec(recordPath);
  if (m) return `${m[1]}${m[2]}`;
  return recordPath;
}

/** The Component record an order adds. */
export function buildRecord(input: OrderInput, apiVersion = DEFAULT_API_VERSION): Record<string, unknown> {
  const owners = input.owners.map((o) => {
    const group = o.group?.trim();
    return group ? { user: o.user.trim(), group } : { user: o.user.trim() };
  });
  const dependencies: Partial<Record<DependencyFlag, boolean>> = {};
  for (const flag of DEPENDENCY_FLAGS) if (input.dependencies?.[flag]) dependencies[flag] = true;
  const spec: Record<string, unknown> = {
    kind: input.kind,
    repo: { path: input.repoPath.trim() },
    owners,
    environments: input.environments,
  };
  if (input.runtime !== undefined && input.runtime !== null) spec.runtime = input.runtime;
  if (Object.keys(dependencies).length > 0) spec.dependencies = dependencies;
  if (input.library !== undefined && input.library !== null) spec.library = input.library;
  return {
    apiVersion,
    kind: "Component",
    metadata: { name: input.name.trim(), displayName: input.displayName.trim() },
    spec,
  };
}

export type OrderValidation = { ok: true; component: Component } | { ok: false; issues: FieldIssue[] };

/** The wizard and the server run the same check. */
export function validateOrder(input: unknown, apiVersion = DEFAULT_API_VERSION): OrderValidation {
  const shape = orderInputSchema.safeParse(input);
  if (!shape.success) {
    return { ok: false, issues: shape.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })) };
  }
  return validateComponent(buildRecord(shape.data, apiVersion));
}

// ---- resource requests ----

export const RESOURCE_STATUSES = ["requested", "provisioned-by-merge", "rejected"] as const;
export type ResourceStatus = (typeof RESOURCE_STATUSES)[number];

/** One resource of one component in one environment. */
export const resourceRequestSchema = z.object({
  /** <component>/<environment or "-">/<resource>, stable across calls. */
  id: z.string(),
  component: z.string(),
  /** null when the component lists no environments (the resource is requested without one). */
  environment: z.string().nullable(),
  resource: z.enum(DEPENDENCY_FLAGS),
  /**
   * requested: in an order waiting for a lead; provisioned-by-merge: the record is merged in the config
   * repository (an approved order, or a component already in the catalog); rejected: its order was rejected.
   */
  status: z.enum(RESOURCE_STATUSES),
  /** order: comes from an order not (or no longer) in the catalog; component: from a catalog record. */
  source: z.enum(["order", "component"]),
  orderId: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string().nullable(),
  mergeRequest: z.object({ iid: z.number().int(), webUrl: z.string().nullable() }).nullable(),
  /** The rejection reason, for rejected requests. */
  reason: z.string().nullable(),
});
export type ResourceRequest = z.infer<typeof resourceRequestSchema>;

/** GET /api/resource-requests answer. */
export const resourceRequestListSchema = z.object({
  items: z.array(resourceRequestSchema),
  total: z.number().int(),
  // An object of the three statuses, spelled out: a record keyed by an enum has no properties in JSON Schema.
  counts: z.object(Object.fromEntries(RESOURCE_STATUSES.map((status) => [status, z.number().int()])) as Record<ResourceStatus, z.ZodNumber>),
});
export type ResourceRequestList = z.infer<typeof resourceRequestListSchema>;

export const resourceFilterSchema = z.strictObject({
  component: z.string().trim().min(1).optional(),
  environment: z.string().trim().min(1).optional(),
  resource: z.enum(DEPENDENCY_FLAGS, { error: `resource must be one of ${DEPENDENCY_FLAGS.join(", ")}` }).optional(),
  status: z.enum(RESOURCE_STATUSES, { error: `status must be one of ${RESOURCE_STATUSES.join(", ")}` }).optional(),
});
export type ResourceFilter = z.infer<typeof resourceFilterSchema>;

/** The resources a record asks for: each true dependency flag in each environment. */
export function resourcesOf(component: Pick<Component, "spec">): Array<{ environment: string | null; resource: DependencyFlag }> {
  const flags = DEPENDENCY_FLAGS.filter((f) => component.spec.dependencies?.[f]);
  const envs: Array<string | null> = component.spec.environments.length ? component.spec.environments : [null];
  return envs.flatMap((environment) => flags.map((resource) => ({ environment, resource })));
}

// ---- files of the merge request ----

export function recordYaml(component: Component, comment?: string): string {
  return `${comment ? `${comment.split("\n").map((l) => `# ${l}`).join("\n")}\n` : ""}${stringify(component)}`;
}

/** The resource requests file (resources/<name>.yaml); null when the record asks for nothing. */
export function resourcesYaml(component: Component, meta: { orderId: string; requester: string }): string | null {
  const list = resourcesOf(component);
  if (list.length === 0) return null;
  const doc = {
    component: component.metadata.name,
    order: meta.orderId,
    requestedBy: meta.requester,
    resources: list.map((r) => ({ environment: r.environment ?? "all", type: r.resource })),
  };
  return `# Resource requests of ${component.metadata.name}, ordered in the portal by ${meta.requester}.\n# Provisioned when this merge request is merged.\n${stringify(doc)}`;
}

// ---- the API's view of an order ----

export const orderSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  kind: z.string(),
  status: z.enum(ORDER_STATUSES),
  requester: z.string(),
  requesterName: z.string(),
  component: z.record(z.string(), z.unknown()),
  resources: z.array(z.object({ environment: z.string().nullable(), resource: z.enum(DEPENDENCY_FLAGS) })),
  mergeRequest: z
    .object({ repository: z.string(), iid: z.number().int(), webUrl: z.string().nullable(), sourceBranch: z.string().nullable(), mergeCommitSha: z.string().nullable() })
    .nullable(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AppOrder = z.infer<typeof orderSchema>;

export const rejectBodySchema = z.strictObject({
  reason: z
    .string({ error: "a reason is required: tell the requester why" })
    .trim()
    .min(1, "a reason is required: tell the requester why")
    .max(2000, "keep the reason under 2000 characters"),
});
