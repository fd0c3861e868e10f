/**
 * The admin API of reward delivery for the portal (Bearer OFFERS_ADMIN_TOKEN, checked by this
 * plugin's onRequest hook): a game's endpoints and delivery figures, the delivery log, replays.
 * Changing, rotating or deleting an endpoint requires If-Match with its ETag (../../preconditions).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { deliveryStats, listDeliveries } from "../../delivery/delivery-log";
import { OffersError } from "../../errors";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { Precondition } from "../../preconditions";
import type { OffersServices } from "../services";

export interface AdminWebhookRoutesOptions {
  services: OffersServices;
  adminToken: string;
}

export const adminWebhookRoutes: FastifyPluginAsyncZod<AdminWebhookRoutesOptions> = async (app, { services, adminToken }) => {
  const { webhooks, engine, clock } = services;
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;
  const GameParams = z.object({ gameId: S.Identifier });
  const EndpointParams = GameParams.extend({ endpointId: S.Identifier });
  const DeliveryParams = GameParams.extend({ deliveryId: S.DeliveryId });

  const required = (headers: { "if-match"?: string }): Precondition => ({ ifMatch: headers["if-match"], required: true });
  const Conditional = S.IfMatchRequired.extend(S.AdminEnvironmentHeader.shape);
  const IF_MATCH = "Requires If-Match with the endpoint's ETag: 428 precondition-required without, 412 precondition-failed (with the current ETag) when it is stale.";

  /** 404 game-not-found for a game the service does not know (every route here names one). */
  const knownGame = async (gameId: string) => {
    if (!(await engine.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
    return gameId;
  };

  app.get(
    "/admin/games/:gameId/webhooks",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetWebhooks",
        summary: "A game's webhook endpoints and delivery figures (lag, pending, dead letters)",
        params: GameParams,
        response: { 200: S.AdminWebhooks, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => {
      const gameId = await knownGame(request.params.gameId);
      const [endpoints, stats] = await Promise.all([webhooks.list(gameId), deliveryStats(engine.db, gameId, clock.now())]);
      return { endpoints, stats };
    },
  );

  app.post(
    "/admin/games/:gameId/webhooks/endpoints",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminCreateWebhookEndpoint",
        summary: "Add an endpoint; answers its signing secret, shown once",
        params: GameParams,
        body: S.WebhookEndpointInput,
        response: { 200: S.WebhookEndpointCreated, ...errorResponses("admin", { codes: ["game-not-found", "webhook-url-not-allowed", "too-many-webhook-endpoints"], body: true }) },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(await knownGame(request.params.gameId), request.body);
      reply.header("etag", created.etag);
      return created;
    },
  );

  app.get(
    "/admin/games/:gameId/webhooks/endpoints/:endpointId",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetWebhookEndpoint",
        summary: "One endpoint, with its ETag (If-Match of a change) in the header and the body",
        params: EndpointParams,
        response: { 200: S.WebhookEndpoint, ...errorResponses("admin", { codes: ["webhook-endpoint-not-found"], body: false }) },
      },
    },
    async (request, reply) => {
      const endpoint = await webhooks.get(request.params.gameId, request.params.endpointId);
      reply.header("etag", endpoint.etag);
      return endpoint;
    },
  );

  app.patch(
    "/admin/games/:gameId/webhooks/endpoints/:endpointId",
    {
      schema: { headers: Conditional,
        tags,
        security,
        operationId: "adminUpdateWebhookEndpoint",
        summary: "Change an endpoint (enable, disable, URL, event types)",
        description: IF_MATCH,
        params: EndpointParams,
        body: S.WebhookEndpointPatch,
        response: {
          200: S.WebhookEndpoint,
          ...errorResponses("admin", { codes: ["webhook-endpoint-not-found", "webhook-url-not-allowed", "precondition-failed", "precondition-required"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const updated = await webhooks.update(request.params.gameId, request.params.endpointId, request.body, required(request.headers));
      reply.header("etag", updated.etag);
      return updated;
    },
  );

  app.delete(
    "/admin/games/:gameId/webhooks/endpoints/:endpointId",
    {
      schema: { headers: Conditional,
        tags,
        security,
        operationId: "adminDeleteWebhookEndpoint",
        summary: "Delete an endpoint with its deliveries",
        description: IF_MATCH,
        params: EndpointParams,
        response: {
          200: z.object({ deleted: z.literal(true) }),
          ...errorResponses("admin", { codes: ["webhook-endpoint-not-found", "precondition-failed", "precondition-required"], body: true }),
        },
      },
    },
    async (request) => {
      await webhooks.remove(request.params.gameId, request.params.endpointId, required(request.headers));
      return { deleted: true as const };
    },
  );

  app.post(
    "/admin/games/:gameId/webhooks/endpoints/:endpointId/rotate-secret",
    {
      schema: { headers: Conditional,
        tags,
        security,
        operationId: "adminRotateWebhookSecret",
        summary: "A new signing secret, shown once (the previous one signs too for 24 h)",
        description: IF_MATCH,
        params: EndpointParams,
        body: S.EmptyBody,
        response: {
          200: S.WebhookSecretRotated,
          ...errorResponses("admin", { codes: ["webhook-endpoint-not-found", "precondition-failed", "precondition-required"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const rotated = await webhooks.rotateSecret(request.params.gameId, request.params.endpointId, required(request.headers));
      reply.header("etag", rotated.etag);
      return rotated;
    },
  );

  app.post(
    "/admin/games/:gameId/webhooks/endpoints/:endpointId/test",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminSendWebhookTest",
        summary: "Queue a webhook.test event for this endpoint",
        params: EndpointParams,
        body: S.EmptyBody,
        response: { 200: S.WebhookTestSent, ...errorResponses("admin", { codes: ["webhook-endpoint-not-found"], body: true }) },
      },
    },
    async (request) => webhooks.sendTest(request.params.gameId, request.params.endpointId),
  );

  app.get(
    "/admin/games/:gameId/webhooks/deliveries",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminListWebhookDeliveries",
        summary: "The delivery log, newest first, with each delivery's attempts",
        params: GameParams,
        querystring: S.WebhookDeliveryQuery,
        response: { 200: S.WebhookDeliveryPage, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => listDeliveries(engine.db, await knownGame(request.params.gameId), request.query),
  );

  app.post(
    "/admin/games/:gameId/webhooks/deliveries/:deliveryId/replay",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminReplayWebhookDelivery",
        summary: "Send one delivery again, with the same webhook-id",
        params: DeliveryParams,
        body: S.EmptyBody,
        response: { 200: S.WebhookReplayed, ...errorResponses("admin", { codes: ["webhook-delivery-not-found"], body: true }) },
      },
    },
    async (request) => {
      await webhooks.replay(request.params.gameId, request.params.deliveryId);
      return { replayed: 1 };
    },
  );

  app.post(
    "/admin/games/:gameId/webhooks/replay",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminReplayFailedWebhooks",
        summary: "Send again every failed delivery whose event happened in [from, to)",
        params: GameParams,
        body: S.WebhookReplayRequest,
        response: { 200: S.WebhookReplayed, ...errorResponses("admin", { codes: ["game-not-found"], body: true }) },
      },
    },
    async (request) => ({ replayed: await webhooks.replayFailed(await knownGame(request.params.gameId), request.body) }),
  );
};
