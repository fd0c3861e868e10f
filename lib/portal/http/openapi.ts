/**
 * The portal API's OpenAPI document, built from the specs its routes were made with: each handler that
 * route()/publicRoute() returns keeps its spec (role, the zod schemas of its parts, its RouteDoc), so
 * the document reads the same schemas that parse the requests. Summaries and operationIds come from the
 * root index (lib/catalog/endpoints.ts: an entry's key is its operationId), error statuses from the one
 * status table (./status.ts), error bodies from the one error body schema (./respond.ts), written once and
 * referenced by a response shared per status and set of codes.
 */
import { z } from "zod";
import { Environment } from "@/lib/offers-client/schemas";
import type { OpenAPIV3_1 } from "openapi-types";
import { PORTAL_ENDPOINTS } from "@/lib/catalog/endpoints";
import type { PortalErrorCode } from "../errors";
import { ErrorBodySchema } from "./respond";
import { documentedCodes, type DocumentedSpec, type Part, type RouteHandler, type SuccessDoc, type SuccessDocs } from "./route";
import { statusOf } from "./status";

/** One route module of app/api: its path in OpenAPI form (`/api/components/{name}`) and its exports. */
export interface PortalRouteModule {
  path: string;
  module: Record<string, unknown>;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];

export const PORTAL_SECURITY_SCHEMES = {
  personalToken: {
    type: "http",
    scheme: "bearer",
    description: "A personal API token (create one in the portal's settings, signed in): scripts and CI. It cannot create tokens.",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description: "The browser session after sign-in (`__Secure-` prefixed over HTTPS). Changes must come from the portal's own pages.",
  },
} as const;

const STATUS_TEXT: Record<number, string> = {
  400: "Bad request",
  401: "Unauthenticated",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  412: "Precondition failed",
  413: "Payload too large",
  422: "Unprocessable",
  428: "Precondition required",
  429: "Too many requests (retry after Retry-After)",
  500: "Internal error",
  502: "A service behind the portal failed",
  503: "Unavailable (retry after Retry-After)",
};

/**
 * Written once in components and referenced by every error answer, which names only its codes: the error body (every
 * code in its `message` enum) and the headers of a 503 and of a 429 (lib/portal/rate-limit.ts; the RateLimit-* ones
 * also come with every answer below the budget).
 */
const ERROR_BODY = "PortalError";
const ERROR_HEADERS: Record<string, OpenAPIV3_1.HeaderObject> = {
  RetryAfter: { description: "Seconds to wait before retrying", schema: { type: "integer" } },
  RetryAfterBudget: { description: "Seconds until the budget renews", schema: { type: "integer" } },
  RateLimitLimit: { description: "Requests per minute of the caller's budget", schema: { type: "integer" } },
  RateLimitRemaining: { description: "Requests left in the current minute", schema: { type: "integer" } },
  RateLimitReset: { description: "Seconds until the current window ends", schema: { type: "integer" } },
};
const ref = (kind: "schemas" | "headers", name: string) => ({ $ref: `#/components/${kind}/${name}` });
const HEADERS_OF_503 = { "Retry-After": ref("headers", "RetryAfter") };
const HEADERS_OF_429 = {
  "Retry-After": ref("headers", "RetryAfterBudget"),
  "RateLimit-Limit": ref("headers", "RateLimitLimit"),
  "RateLimit-Remaining": ref("headers", "RateLimitRemaining"),
  "RateLimit-Reset": ref("headers", "RateLimitReset"),
};

const OffersEnvironmentQuery = z.object({ environment: Environment.optional().describe("live (default) or test: the environment of the offers service's game this call reaches") });

const schemaOf = (part: Part): z.ZodType => ("safeParse" in part ? part : part.schema);

/** JSON Schema of what a request part accepts; nested named schemas become components. */
function jsonSchema(schema: z.ZodType, io: "input" | "output", components: Record<string, OpenAPIV3_1.SchemaObject>): OpenAPIV3_1.SchemaObject {
  const { $schema: _ignored, $defs, ...rest } = z.toJSONSchema(schema, { io, target: "draft-2020-12", unrepresentable: "any", reused: "inline" }) as Record<string, unknown>;
  const rewrite = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/'));
  for (const [name, def] of Object.entries(($defs as Record<string, unknown> | undefined) ?? {})) components[name] = rewrite(def);
  return rewrite(rest);
}

function parametersOf(where: "path" | "query" | "header", part: Part | undefined, components: Record<string, OpenAPIV3_1.SchemaObject>): OpenAPIV3_1.ParameterObject[] {
  if (!part) return [];
  const schema = jsonSchema(schemaOf(part), "input", components);
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => {
    const { description, ...propertySchema } = property as OpenAPIV3_1.SchemaObject;
    // (openapi-types types a 3.1 parameter's schema as a 3.0 one)
    return { name, in: where, required: where === "path" || required.has(name), ...(description ? { description } : {}), schema: propertySchema } as unknown as OpenAPIV3_1.ParameterObject;
  });
}

/**
 * The error answers of an operation, one per status, each a shared response: the error body narrowed to the codes
 * answered with that status (`allOf`; a generated client types `message` as exactly those codes). Operations answering
 * the same codes with a status share its response (`Error503.database-unavailable.source-control-busy`).
 */
function errorResponses(codes: PortalErrorCode[], shared: Record<string, OpenAPIV3_1.ResponseObject>): OpenAPIV3_1.ResponsesObject {
  const byStatus = new Map<number, PortalErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(statusOf[code], [...(byStatus.get(statusOf[code]) ?? []), code]);
  const responses: OpenAPIV3_1.ResponsesObject = {};
  for (const status of [...byStatus.keys()].sort()) {
    const list = byStatus.get(status)!.sort();
    const name = `Error${status}.${list.join(".")}`;
    const these = { type: "object", required: ["message"], properties: { message: { type: "string", enum: list } } };
    shared[name] ??= {
      description: `${STATUS_TEXT[status] ?? `Status ${status}`}: ${list.map((c) => `\`${c}\``).join(", ")}.`,
      ...(status === 503 ? { headers: HEADERS_OF_503 } : {}),
      ...(list.includes("rate-limited") ? { headers: HEADERS_OF_429 } : {}),
      content: { "application/json": { schema: { allOf: [ref("schemas", ERROR_BODY), these] } } },
    } as OpenAPIV3_1.ResponseObject;
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
  return responses;
}

function successResponses(spec: DocumentedSpec, components: Record<string, OpenAPIV3_1.SchemaObject>): OpenAPIV3_1.ResponsesObject {
  const declared: SuccessDocs = spec.doc?.responses ?? { 200: { description: "OK (JSON)", contentType: "application/json" } };
  const responses: OpenAPIV3_1.ResponsesObject = {};
  for (const [status, answer] of Object.entries(declared) as Array<[string, SuccessDoc | undefined]>) {
    if (!answer) continue;
    if ("noBody" in answer) responses[status] = { description: answer.description };
    else if ("schema" in answer) responses[status] = { description: answer.description, content: { "application/json": { schema: jsonSchema(answer.schema, "output", components) } } };
    else responses[status] = { description: answer.description, content: { [answer.contentType]: { schema: contentSchemaOf(answer.contentType) } } };
  }
  return responses;
}

/** What a non-JSON body is, for the document: an event stream or other text is a string. */
function contentSchemaOf(contentType: string): OpenAPIV3_1.SchemaObject {
  return contentType === "application/json" ? {} : { type: "string" };
}

/** The index entry of a method and path: its key is the operationId, its description the summary. */
function indexEntry(method: Method, path: string): { operationId: string; summary: string } {
  const indexPath = path.replace(/\{(\w+)\}/g, ":$1");
  const found = Object.entries(PORTAL_ENDPOINTS).find(([, e]) => e.method === method && e.path === indexPath);
  if (!found) throw new Error(`${method} ${indexPath} is not in the root index (lib/catalog/endpoints.ts)`);
  return { operationId: found[0], summary: found[1].description };
}

/** The first segment after /api names the area; the offers console's webhooks are an area of their own. */
const tagOf = (path: string) => {
  const first = path.split("/")[2];
  if (!first || first === "openapi.json") return "index";
  return first === "offers" && path.includes("/webhooks") ? "webhooks" : first;
};

export function buildPortalOpenApiDocument(routes: readonly PortalRouteModule[]): OpenAPIV3_1.Document {
  const components: Record<string, OpenAPIV3_1.SchemaObject> = {};
  components[ERROR_BODY] = {
    ...jsonSchema(ErrorBodySchema, "output", components),
    description: 'The body of every portal error (docs/operations/error-codes.md); each answer names the codes it can carry',
  };
  const responses: Record<string, OpenAPIV3_1.ResponseObject> = {};
  // Plain objects: openapi-types mixes 3.0 types into its 3.1 ones; the document is checked by redocly lint instead.
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const { path, module } of routes) {
    const item: Record<string, unknown> = {};
    for (const method of METHODS) {
      const spec = (module[method] as RouteHandler | undefined)?.spec;
      if (!spec) continue;
      const tag = tagOf(path);
      tags.add(tag);
      const parameters = [
        ...parametersOf("path", spec.params, components),
        ...parametersOf("query", spec.query, components),
        // route({ offersEnvironment: true }): the game environment the call reaches.
        ...(!spec.public && spec.offersEnvironment ? parametersOf("query", OffersEnvironmentQuery, components) : []),
        ...parametersOf("header", spec.headers, components),
      ];
      const security: Array<Record<string, string[]>> = spec.public ? [] : spec.sessionOnly ? [{ session: [] }] : [{ personalToken: [] }, { session: [] }];
      const roles = !spec.public && spec.role ? (typeof spec.role === "string" ? spec.role : spec.role.join(" or ")) : undefined;
      item[method.toLowerCase()] = {
        ...indexEntry(method, path),
        tags: [tag],
        ...(roles ? { description: `Needs the ${roles} role (admin holds every role).` } : {}),
        security,
        ...(parameters.length ? { parameters } : {}),
        ...(spec.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(spec.doc?.requestBody ?? schemaOf(spec.body), "input", components) } } } } : {}),
        ...(!spec.body && spec.doc?.requestForm ? { requestBody: { required: true, content: { "multipart/form-data": { schema: jsonSchema(spec.doc.requestForm, "input", components) } } } } : {}),
        responses: { ...successResponses(spec, components), ...errorResponses([...documentedCodes(method, spec)], responses) },
      };
    }
    if (Object.keys(item).length) paths[path] = item;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Platform portal API",
      version: "1.0.0",
      description:
        "The internal developer portal: component catalog, configuration, releases, imports, app orders, merge requests, and the " +
        "offers service's support and live-ops consoles. Scripts authenticate with a personal API token (`Authorization: Bearer`). " +
        'Every error answers `{"message": <stable code>, "detail": <sentence>, "issues"?: [{path, message}]}` (docs/operations/error-codes.md).',
    },
    servers: [{ url: "/", description: "The portal that serves this document" }],
    tags: [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: { schemas: components, responses: sortedByName(responses), headers: ERROR_HEADERS, securitySchemes: PORTAL_SECURITY_SCHEMES },
  } as unknown as OpenAPIV3_1.Document;
}

const sortedByName = <T>(record: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const TAG_DESCRIPTIONS: Record<string, string> = {
  index: "The root index and this document.",
  auth: "Sign-out (sign-in is a browser flow under /auth/<provider>).",
  components: "The component catalog: records, favorites, configuration, releases, status.",
  import: "Importing repositories from source control into the catalog.",
  cache: "Re-reading the config repository.",
  options: "Values the forms need.",
  "resource-requests": "Resource requests of app orders.",
  "app-order-requests": "Ordering apps; the leads' approvals.",
  "merge-requests": "Merge requests proposed through the portal.",
  audit: "The audit log (admin).",
  tokens: "Personal API tokens.",
  offers: "The offers service's support and live-ops consoles (through its admin API).",
  webhooks: "Reward webhooks of a game (live ops).",
};
