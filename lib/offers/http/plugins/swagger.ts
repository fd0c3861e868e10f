/**
 * The OpenAPI document, generated from the routes' zod schemas (GET /v1/openapi.json), and its docs
 * page (/v1/docs). Register `openApiPlugin` before the routes so it sees them.
 */
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyPluginAsync } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import fastifyPlugin from "fastify-plugin";

export const jwtSecurity: Array<Record<string, string[]>> = [{ gameJwt: [] }, { bearerJwt: [] }];
export const apiKeySecurity: Array<Record<string, string[]>> = [{ apiKey: [], clientId: [] }];

export const openApiPlugin = fastifyPlugin(async (app) => {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Offers and Rewards API",
        version: "1.0.0",
        description: "Personalized offers, exactly-once reward claims and one-time dashboard tokens. JWT (HS256, signed with the game's API key) for game clients; API key + client id for game servers.",
      },
      components: {
        securitySchemes: {
          gameJwt: { type: "apiKey", in: "header", name: "x-game-jwt" },
          bearerJwt: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
          apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
          clientId: { type: "apiKey", in: "header", name: "x-client-id" },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
}, { name: "offers-openapi" });

/** GET /openapi.json (under /v1). */
export const openApiDocumentRoute: FastifyPluginAsync = async (app) => {
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
};

/** The docs page, at /v1/docs. */
export const docsPagePlugin = fastifyPlugin(async (app) => {
  await app.register(fastifySwaggerUi, { routePrefix: "/v1/docs" });
}, { name: "offers-docs-page" });
