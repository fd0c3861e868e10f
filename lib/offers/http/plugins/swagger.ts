/**
 * The OpenAPI document, generated from the routes' zod schemas (GET /v1/openapi.json), and its docs
 * page (/v1/docs). Register `openApiPlugin` before the routes so it sees them. Who may call a route
 * and what it can be refused for come from ../route-docs.ts.
 */
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyPluginAsync } from "fastify";
import { jsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import fastifyPlugin from "fastify-plugin";
import type { OpenAPIV3_1 } from "openapi-types";
import { SECURITY_SCHEMES } from "../route-docs";
import { withRateLimitHeaders } from "./rate-limit";
import { DOCS_CONTENT_SECURITY_POLICY } from "./security-headers";

/** The tags of the document, one per audience. */
export const TAGS: OpenAPIV3_1.TagObject[] = [
  { name: "client", description: "Game clients (browser, mobile app, game client) with the player's game JWT." },
  { name: "server", description: "Game servers with the game's API key and client id." },
  { name: "dashboard", description: "The players' rewards page: redeeming a one-time token." },
  { name: "admin", description: "The portal's admin API (OFFERS_ADMIN_TOKEN): support, live ops, reward delivery." },
];

/**
 * Relative: the host that serves this document is the service (paths carry /v1), wherever it is
 * deployed; the docs page's "try it out" and generated clients take the host from there.
 */
export const SERVERS: OpenAPIV3_1.ServerObject[] = [{ url: "/", description: "The offers service that serves this document" }];

/** The Standard Webhooks headers of every delivery (lib/offers/delivery/sender.ts). */
const WEBHOOK_HEADERS: OpenAPIV3_1.ParameterObject[] = [
  { name: "webhook-id", in: "header", required: true, schema: { type: "string" }, description: "The event's id, the same on every attempt and replay: de-duplicate on it." },
  { name: "webhook-timestamp", in: "header", required: true, schema: { type: "string", pattern: "^[0-9]+$" }, description: "When this attempt was signed, in Unix seconds. Refuse one far from your clock (replays of a captured request)." },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    schema: { type: "string" },
    description:
      "Space-separated `v1,<base64>` signatures, one per active secret of the endpoint (two while a secret rotates): " +
      "HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` keyed with the secret's bytes (after its `whsec_` prefix), " +
      "per the Standard Webhooks specification; the `standardwebhooks` packages verify it.",
  },
];

/** How a receiver knows a webhook is ours: the signature header, checked with the endpoint's secret. */
const WEBHOOK_SIGNATURE_SCHEME: OpenAPIV3_1.SecuritySchemeObject = {
  type: "apiKey",
  in: "header",
  name: "webhook-signature",
  description: "Sent by the service, checked by the receiver: the Standard Webhooks signature made with the endpoint's signing secret (see the header).",
};

/** One webhook the service sends: its body (a component schema) and what the receiver's answer means. */
function webhook(operationId: string, schemaId: string, summary: string, description: string): OpenAPIV3_1.PathItemObject {
  return {
    post: {
      operationId,
      summary,
      description,
      tags: ["server"],
      security: [{ webhookSignature: [] }],
      parameters: WEBHOOK_HEADERS,
      requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${schemaId}` } } } },
      responses: {
        "2XX": { description: "Received. Any 2xx ends the delivery; the body is ignored." },
        default: {
          description:
            "Not received (so is no answer within the endpoint's timeout): tried again with backoff for about 24 hours " +
            "(12 attempts), then failed; the portal or the admin API replays failed deliveries with the same webhook-id.",
        },
      },
    },
  };
}

/**
 * The webhooks a game server receives (OpenAPI 3.1 `webhooks`), so a receiver's types can be generated
 * like a client's.
 */
export const WEBHOOKS: Record<string, OpenAPIV3_1.PathItemObject> = {
  "reward.granted": webhook(
    "rewardGranted",
    "RewardGrantedEvent",
    "A reward was granted",
    "Sent to each enabled endpoint of the game and environment subscribed to `reward.granted`, for every claim and every support grant when it is granted " +
      "(`kind` support, `source` support, with `actor`, `approvedBy` and `reason`; `actor` is `game-server:<clientId>` for a game server's own " +
      "grant, `POST /v1/player/rewards/grant`). At least once and " +
      "not necessarily in order (attempts run side by side and retry): de-duplicate on `id`. `GET /v1/rewards/events` serves the " +
      "same events in commit order.",
  ),
  "webhook.test": webhook(
    "webhookTest",
    "WebhookTestEvent",
    "A test event",
    "Sent to one endpoint when someone asks for a test (`POST /v1/webhooks/endpoints/{endpointId}/test`, or the portal's webhooks page); never in the feed.",
  ),
};

/**
 * Schemas given an id (`.meta({ id })`) are components, referenced with $ref; the transform emits the
 * id of every such schema in the process for input and output alike, so keep only those referenced.
 */
function withReferencedComponents(document: OpenAPIV3_1.Document): OpenAPIV3_1.Document {
  const schemas = document.components?.schemas ?? {};
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== "object") return;
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/")) {
        const name = child.slice("#/components/schemas/".length);
        if (!used.has(name)) {
          used.add(name);
          visit(schemas[name]);
        }
      } else visit(child);
    }
  };
  visit(document.paths);
  visit(document.webhooks);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return { ...document, components: { ...document.components, schemas: kept } };
}

export const openApiPlugin = fastifyPlugin(async (app) => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Offers and Rewards API",
        version: "1.0.0",
        description:
          "Personalized offers, exactly-once reward claims, one-time dashboard tokens and a real-time event stream. " +
          "JWT (HS256, signed with the game's API key) for game clients; API key + client id for game servers. " +
          "Every error answers a stable code: `{\"message\": code}`, `{\"message\": \"invalid-request\", \"issues\": […]}` for bad input, " +
          "and the bare JSON string `\"invalid-api-key\"` for a refused API key. " +
          "Unknown fields: the interface's game-client and game-server bodies (campaigns, refresh, claims, tokens, snapshot, assign, referrals) ignore them; " +
          "authoring and management bodies (definitions, currencies, webhook endpoints, the admin API) refuse them with 400 naming the key.",
      },
      servers: SERVERS,
      tags: TAGS,
      components: {
        securitySchemes: { ...(SECURITY_SCHEMES as unknown as Record<string, OpenAPIV3_1.SecuritySchemeObject>), webhookSignature: WEBHOOK_SIGNATURE_SCHEME },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) =>
      withRateLimitHeaders(withReferencedComponents({ ...(jsonSchemaTransformObject(input) as OpenAPIV3_1.Document), webhooks: WEBHOOKS })),
  });
}, { name: "offers-openapi" });

/** GET /openapi.json (under /v1). */
export const openApiDocumentRoute: FastifyPluginAsync = async (app) => {
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
};

/** The docs page, at /v1/docs, with a policy that lets swagger-ui's own files run (the API's forbids all). */
export const docsPagePlugin = fastifyPlugin(async (app) => {
  await app.register(fastifySwaggerUi, { routePrefix: "/v1/docs", staticCSP: DOCS_CONTENT_SECURITY_POLICY });
}, { name: "offers-docs-page" });
