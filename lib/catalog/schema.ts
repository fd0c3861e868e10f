/**
 * The Component record, exactly as spec/interface.md lists it ("Internal platform portal API").
 * Single source of the type (z.infer). Plain TypeScript: imported by the server and by the edit form.
 *
 * Choices the interface leaves open (docs/decisions.md):
 * - objects are strict: an unknown key (a typo such as `enviroments`) is an error, not silently ignored;
 * - spec.kind, environments and platforms accept only the values the interface lists;
 * - metadata.name is a DNS label (lowercase letters, digits, hyphens, at most 63) so it is safe in a path;
 *   "favorites" is reserved because /api/components/favorites is a route of its own;
 * - a component has at least one owner; environments may be empty but not repeat;
 * - runtime.k8s.namespaces may only name environments the component lists;
 * - metadata.displayName is at most DISPLAY_NAME_MAX characters: it is shown in tables, headings and
 *   the page title, where an unbounded name breaks the layout.
 * - Backstage's optional fields, bounded for the same reason: metadata.description, metadata.tags
 *   (lowercase, unique), metadata.links (http and https only: a link is opened from the portal) and
 *   spec.lifecycle (experimental, production, deprecated).
 * - Relations, optional (docs/component-records.md): spec.system (a name), spec.dependsOn (component names),
 *   spec.providesApis ({name, type, path}) and spec.consumesApis (API names). Names follow metadata.name's
 *   rule; no list repeats a name; a component does not depend on itself. A name that no record holds is
 *   not an error here: the catalog shows it as a warning (relations.ts), so records load in any order.
 */
import { z } from "zod";

export const COMPONENT_KINDS = ["frontend", "service", "docs", "tooling", "mobile", "library"] as const;
export const ENVIRONMENTS = ["dev", "staging", "sandbox", "production"] as const;
export const MOBILE_PLATFORMS = ["ios", "android", "web"] as const;
export const DEPENDENCY_FLAGS = ["mongo", "redis", "pubsub", "gcpSecrets"] as const;
export const LIBRARY_MODELS = ["monorepo", "single"] as const;
export const RESERVED_NAMES = ["favorites"] as const;

/** Longest metadata.displayName (after trimming). */
export const DISPLAY_NAME_MAX = 100;
export const DESCRIPTION_MAX = 1000;
export const TAGS_MAX = 20;
export const LINKS_MAX = 20;
export const LINK_TITLE_MAX = 100;
export const LIFECYCLES = ["experimental", "production", "deprecated"] as const;
export const TAG_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const API_TYPES = ["openapi", "asyncapi", "grpc"] as const;
/** Longest list of spec.dependsOn, spec.providesApis or spec.consumesApis: a page lists each whole. */
export const RELATIONS_MAX = 100;
export const API_PATH_MAX = 300;

export type ComponentKind = (typeof COMPONENT_KINDS)[number];
export type Environment = (typeof ENVIRONMENTS)[number];
export type DependencyFlag = (typeof DEPENDENCY_FLAGS)[number];
export type ApiType = (typeof API_TYPES)[number];

/** A record name: what may appear as :name in /api/components/:name. */
export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const API_VERSION_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\/v1alpha1$/;
/** <group>/<project>; GitLab subgroups allowed (<group>/<subgroup>/<project>). */
export const REPO_PATH_PATTERN = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;
const K8S_NAME_PATTERN = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

export function isValidName(name: string): boolean {
  return NAME_PATTERN.test(name) && !(RESERVED_NAMES as readonly string[]).includes(name);
}

const text = (what: string) => z.string({ error: `${what} must be text` }).trim().min(1, `${what} must not be empty`);

export const componentNameSchema = z
  .string({ error: "name must be text" })
  .regex(NAME_PATTERN, "name must be lowercase letters, digits and hyphens (1–63, no leading or trailing hyphen)")
  .refine((n) => !(RESERVED_NAMES as readonly string[]).includes(n), { message: "this name is reserved" });

export const environmentSchema = z.enum(ENVIRONMENTS, {
  error: `must be one of ${ENVIRONMENTS.join(", ")}`,
});

export const ownerSchema = z.strictObject({
  user: text("user"),
  group: text("group").optional(),
});

export const k8sRuntimeSchema = z.strictObject({
  namespaces: z
    .partialRecord(environmentSchema, z.string().regex(K8S_NAME_PATTERN, "a namespace must be a Kubernetes name (lowercase letters, digits, hyphens)"))
    .optional(),
  deploymentContractPath: text("deploymentContractPath"),
});

export const mobileRuntimeSchema = z.strictObject({
  platforms: z
    .array(z.enum(MOBILE_PLATFORMS, { error: `must be one of ${MOBILE_PLATFORMS.join(", ")}` }))
    .min(1, "list at least one platform")
    .refine((p) => new Set(p).size === p.length, { message: "a platform is listed twice" }),
});

export const dependenciesSchema = z.strictObject({
  mongo: z.boolean().optional(),
  redis: z.boolean().optional(),
  pubsub: z.boolean().optional(),
  gcpSecrets: z.boolean().optional(),
});

export const librarySchema = z.strictObject({
  model: z.enum(LIBRARY_MODELS, { error: `must be one of ${LIBRARY_MODELS.join(", ")}` }),
  defaultRegistry: text("defaultRegistry"),
  publish: z
    .strictObject({
      strategy: text("strategy"),
      visibilityPolicy: z.strictObject({
        default: text("default"),
        allowPublic: z.boolean(),
      }),
    })
    .optional(),
});

export const linkSchema = z.strictObject({
  url: z
    .string({ error: "a link's url must be text" })
    .trim()
    .max(2000, "a link's url must be at most 2000 characters")
    .refine((u) => {
      try {
        const parsed = new URL(u);
        return parsed.protocol === "http:" || parsed.protocol === "https:";
      } catch {
        return false;
      }
    }, "a link's url must be a full http:// or https:// address"),
  title: text("a link's title").max(LINK_TITLE_MAX, `a link's title must be at most ${LINK_TITLE_MAX} characters`),
  icon: z
    .string({ error: "icon must be text" })
    .trim()
    .regex(/^[a-z0-9-]{1,40}$/, "icon is a short name such as docs, dashboard or chat")
    .optional(),
});

/** A name another field refers to (a component, a system, an API): the rule of metadata.name, said for that field. */
const referenceName = (what: string) =>
  z.string({ error: `${what} must be text` }).regex(NAME_PATTERN, `${what} must be lowercase letters, digits and hyphens (1–63, no leading or trailing hyphen)`);

/** A list of names, each once. */
const nameList = (what: string, field: string) =>
  z
    .array(referenceName(what), { error: `${field} must be a list` })
    .max(RELATIONS_MAX, `${field} lists at most ${RELATIONS_MAX} names`)
    .refine((names) => new Set(names).size === names.length, { message: `a name is listed twice in ${field}` });

export const providedApiSchema = z.strictObject({
  name: referenceName("an API's name"),
  type: z.enum(API_TYPES, { error: `must be one of ${API_TYPES.join(", ")}` }),
  path: z
    .string({ error: "an API's path must be text" })
    .trim()
    .min(1, "an API's path must not be empty")
    .max(API_PATH_MAX, `an API's path must be at most ${API_PATH_MAX} characters`)
    .refine((p) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\\"), "an API's path is relative to the component's repository, e.g. api/openapi.yaml (no leading /, no ..)")
    .describe("Where the definition lives in the component's repository, e.g. api/openapi.yaml"),
});

export const componentSchema = z
  .strictObject({
    apiVersion: z.string().regex(API_VERSION_PATTERN, "apiVersion must have the form <group>/v1alpha1, e.g. platform.example.com/v1alpha1"),
    kind: z.literal("Component", { error: 'kind must be "Component"' }),
    metadata: z.strictObject({
      name: componentNameSchema,
      displayName: text("displayName").max(DISPLAY_NAME_MAX, `displayName must be at most ${DISPLAY_NAME_MAX} characters`),
      description: text("description").max(DESCRIPTION_MAX, `description must be at most ${DESCRIPTION_MAX} characters`).optional(),
      tags: z
        .array(z.string({ error: "a tag must be text" }).regex(TAG_PATTERN, "a tag is lowercase letters, digits and hyphens (at most 63), starting with a letter or digit"), {
          error: "tags must be a list",
        })
        .max(TAGS_MAX, `at most ${TAGS_MAX} tags`)
        .refine((t) => new Set(t).size === t.length, { message: "a tag is listed twice" })
        .optional(),
      links: z.array(linkSchema, { error: "links must be a list" }).max(LINKS_MAX, `at most ${LINKS_MAX} links`).optional(),
    }),
    spec: z.strictObject({
      kind: z.enum(COMPONENT_KINDS, { error: `must be one of ${COMPONENT_KINDS.join(", ")}` }),
      lifecycle: z.enum(LIFECYCLES, { error: `must be one of ${LIFECYCLES.join(", ")}` }).optional(),
      repo: z.strictObject({
        path: z.string().regex(REPO_PATH_PATTERN, "repository path must have the form <group>/<project>"),
      }),
      owners: z.array(ownerSchema).min(1, "a component needs at least one owner"),
      environments: z
        .array(environmentSchema)
        .refine((e) => new Set(e).size === e.length, { message: "an environment is listed twice" }),
      runtime: z
        .strictObject({
          k8s: k8sRuntimeSchema.optional(),
          mobile: mobileRuntimeSchema.optional(),
        })
        .optional(),
      dependencies: dependenciesSchema.optional(),
      library: librarySchema.optional(),
      system: referenceName("system").optional().describe("The system (a group of components) this component belongs to"),
      dependsOn: nameList("a component's name", "dependsOn").optional().describe("Names of the components this one depends on"),
      providesApis: z
        .array(providedApiSchema, { error: "providesApis must be a list" })
        .max(RELATIONS_MAX, `providesApis lists at most ${RELATIONS_MAX} APIs`)
        .refine((apis) => new Set(apis.map((a) => a.name)).size === apis.length, { message: "an API is listed twice in providesApis" })
        .optional()
        .describe("The APIs this component serves"),
      consumesApis: nameList("an API's name", "consumesApis").optional().describe("Names of the APIs this component calls"),
    }),
  })
  .superRefine((c, ctx) => {
    const self = c.spec.dependsOn?.indexOf(c.metadata.name) ?? -1;
    if (self >= 0) ctx.addIssue({ code: "custom", path: ["spec", "dependsOn", self], message: "a component does not depend on itself" });
    const namespaces = c.spec.runtime?.k8s?.namespaces ?? {};
    for (const env of Object.keys(namespaces)) {
      if (!c.spec.environments.includes(env as Environment)) {
        ctx.addIssue({
          code: "custom",
          path: ["spec", "runtime", "k8s", "namespaces", env],
          message: `namespace given for "${env}", which is not in spec.environments`,
        });
      }
    }
  });

export type Component = z.infer<typeof componentSchema>;
export type Owner = z.infer<typeof ownerSchema>;
export type Lifecycle = (typeof LIFECYCLES)[number];
export type ProvidedApi = z.infer<typeof providedApiSchema>;

export interface FieldIssue {
  /** Dotted field path, e.g. spec.owners[0].user; "" for the whole record. */
  path: string;
  message: string;
  /** The same path as keys (what an error body's issues carry), when it is known exactly. */
  keys?: string[];
}

export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  switch (typeof value) {
    case "string":
      return `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    case "number":
      return `the number ${value}`;
    case "boolean":
      return `${value}`;
    case "object":
      return "a mapping";
    case "undefined":
      return "nothing";
    default:
      return typeof value;
  }
}

const typeNames: Record<string, string> = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
};

function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = root;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p as string];
  }
  return cur;
}

/** zod issues as messages a person understands: path, what was expected, what was found. */
export function humanIssues(error: z.ZodError, input: unknown): FieldIssue[] {
  const out: FieldIssue[] = [];
  for (const issue of error.issues) {
    const path = formatPath(issue.path);
    const found = valueAt(input, issue.path);
    let message = issue.message;
    switch (issue.code) {
      case "invalid_type": {
        if (found === undefined) message = `${path || "record"} is required (${typeNames[issue.expected] ?? issue.expected})`;
        else message = `expected ${typeNames[issue.expected] ?? issue.expected}, found ${describe(found)}`;
        break;
      }
      case "unrecognized_keys":
        for (const key of issue.keys) {
          out.push({ path: formatPath([...issue.path, key]), message: `unknown field "${key}"`, keys: [...issue.path.map(String), key] });
        }
        continue;
      case "invalid_value":
      case "invalid_format":
        // An empty value is said in words: `found text ""` reads as a developer's message.
        if (found === "" || (typeof found === "string" && found.trim() === "")) message = `${message} (it is empty)`;
        else if (found !== undefined && !message.includes("found")) message = `${message}; found ${describe(found)}`;
        break;
      default:
        break;
    }
    out.push({ path, message, keys: issue.path.map(String) });
  }
  return out;
}

export type ValidationResult = { ok: true; component: Component } | { ok: false; issues: FieldIssue[] };

export function validateComponent(input: unknown): ValidationResult {
  const result = componentSchema.safeParse(input);
  if (result.success) return { ok: true, component: result.data };
  return { ok: false, issues: humanIssues(result.error, input) };
}
