/**
 * Reward delivery for game servers (x-client-id + x-api-key, checked by this plugin's onRequest
 * hook): the ledger feed, the game's webhook endpoints, their delivery log and replays. Every call
 * reaches the key's game and environment only (the caller's tenant), as the admin API's
 * (./admin-webhooks) reaches the one the portal names. Endpoints answer their ETag; a change, rotation
 * or delete takes an optional If-Match (checked when sent, never required: calls written before it work).
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { readFeed } from "../../delivery/feed";
import { deliveryStats, listDeliveries } from "../../delivery/delivery-log";
import * as S from "../../contract";
import { apiKeyAuth, caller } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { Precondition } from "../../preconditions";
import type { OffersServices } from "../services";

export const rewardDeliveryRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  const { webhooks, engine, clock } = services;
  app.addHook("onRequest", apiKeyAuth(services));
  const tags = ["server"];
  const security = securityOf["game-server"];
  const optional = (headers: { "if-match"?: string }): Precondition => ({ ifMatch: headers["if-match"], required: false });
  const IF_MATCH = "If-Match is optional: when sent, only the state it names (the endpoint's ETag) changes; a stale one is 412 precondition-failed with the current ETag.";

  app.get(
    "/rewards/events",
    {
      schema: {
        tags,
        security,
        operationId: "listRewardEvents",
        summary: "The game's reward.granted events in commit order (the ledger feed)",
        description:
          "Pages through every reward granted in the game, oldest first, in the order the claims committed: a page never skips an event " +
          "that a later page would have to return, and never repeats one. Keep `next` and pass it as `after` to read on (after downtime, " +
          "to reconcile with the webhooks: de-duplicate on `id`). An empty page answers the same `next` again. A cursor is valid on the feed " +
          "of the game and environment that wrote it, at a position that feed reached: another game's or environment's cursor, an altered " +
          "one, or one ahead of the feed's end is 400 invalid-cursor.",
        querystring: S.RewardFeedQuery,
        response: { 200: S.RewardFeedResponse, ...errorResponses("game-server", { codes: ["invalid-cursor"], body: false }) },
      },
    },
    async (request) => readFeed(engine.db, caller(request).gameId, request.query.after, request.query.limit),
  );

  app.get(
    "/webhooks/endpoints",
    {
      schema: {
        tags,
        security,
        operationId: "listWebhookEndpoints",
        summary: "The game's webhook endpoints",
        response: { 200: S.WebhookEndpointList, ...errorResponses("game-server", { body: false }) },
      },
    },
    async (request) => ({ endpoints: await webhooks.list(caller(request).gameId) }),
  );

  app.post(
    "/webhooks/endpoints",
    {
      schema: {
        tags,
        security,
        operationId: "createWebhookEndpoint",
        summary: "Add a webhook endpoint; answers its signing secret, shown once",
        description:
          "Deliveries follow the Standard Webhooks specification (headers webhook-id, webhook-timestamp, webhook-signature): verify them with " +
          "the standardwebhooks package and the secret. Refused with 400 webhook-url-not-allowed when the URL reaches a loopback or private " +
          "address and the service does not allow them; 409 too-many-webhook-endpoints past 20.",
        body: S.WebhookEndpointInput,
        response: {
          200: S.WebhookEndpointCreated,
          ...errorResponses("game-server", { codes: ["webhook-url-not-allowed", "too-many-webhook-endpoints"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const created = await webhooks.create(caller(request).gameId, request.body);
      reply.header("etag", created.etag);
      return created;
    },
  );

  app.get(
    "/webhooks/endpoints/:endpointId",
    {
      schema: {
        tags,
        security,
        operationId: "getWebhookEndpoint",
        summary: "One webhook endpoint, with its ETag in the header and the body",
        params: S.WebhookEndpointParams,
        response: { 200: S.WebhookEndpoint, ...errorResponses("game-server", { codes: ["webhook-endpoint-not-found"], body: false }) },
      },
    },
    async (request, reply) => {
      const endpoint = await webhooks.get(caller(request).gameId, request.params.endpointId);
      reply.header("etag", endpoint.etag);
      return endpoint;
    },
  );

  app.patch(
    "/webhooks/endpoints/:endpointId",
    {
      schema: {
        tags,
        security,
        operationId: "updateWebhookEndpoint",
        summary: "Change an endpoint: URL, description, event types, enabled",
        description: IF_MATCH,
        params: S.WebhookEndpointParams,
        headers: S.IfMatchOptional,
        body: S.WebhookEndpointPatch,
        response: {
          200: S.WebhookEndpoint,
          ...errorResponses("game-server", { codes: ["webhook-endpoint-not-found", "webhook-url-not-allowed", "precondition-failed"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const updated = await webhooks.update(caller(request).gameId, request.params.endpointId, request.body, optional(request.headers));
      reply.header("etag", updated.etag);
      return updated;
    },
  );

  app.delete(
    "/webhooks/endpoints/:endpointId",
    {
      schema: {
        tags,
        security,
        operationId: "deleteWebhookEndpoint",
        summary: "Delete an endpoint with its deliveries",
        description: IF_MATCH,
        params: S.WebhookEndpointParams,
        headers: S.IfMatchOptional,
        response: { 200: z.object({ deleted: z.literal(true) }), ...errorResponses("game-server", { codes: ["webhook-endpoint-not-found", "precondition-failed"], body: true }) },
      },
    },
    async (request) => {
      await webhooks.remove(caller(request).gameId, request.params.endpointId, optional(request.headers));
      return { deleted: true as const };
    },
  );

  app.post(
    "/webhooks/endpoints/:endpointId/rotate-secret",
    {
      schema: {
        tags,
        security,
        operationId: "rotateWebhookSecret",
        summary: "A new signing secret, shown once; the previous one keeps signing for 24 hours",
        description: IF_MATCH,
        params: S.WebhookEndpointParams,
        headers: S.IfMatchOptional,
        body: S.EmptyBody,
        response: { 200: S.WebhookSecretRotated, ...errorResponses("game-server", { codes: ["webhook-endpoint-not-found", "precondition-failed"], body: true }) },
      },
    },
    async (request, reply) => {
      const rotated = await webhooks.rotateSecret(caller(request).gameId, request.params.endpointId, optional(request.headers));
      reply.header("etag", rotated.etag);
      return rotated;
    },
  );

  app.post(
    "/webhooks/endpoints/:endpointId/test",
    {
      schema: {
        tags,
        security,
        operationId: "sendWebhookTest",
        summary: "Queue a webhook.test event for this endpoint (delivered, retried and logged like any event)",
        params: S.WebhookEndpointParams,
        body: S.EmptyBody,
        response: { 200: S.WebhookTestSent, ...errorResponses("game-server", { codes: ["webhook-endpoint-not-found"], body: true }) },
      },
    },
    async (request) => webhooks.sendTest(caller(request).gameId, request.params.endpointId),
  );

  app.get(
    "/webhooks/stats",
    {
      schema: {
        tags,
        security,
        operationId: "getWebhookStats",
        summary: "How far behind delivery to the game's endpoints is: lag, pending deliveries, dead letters",
        response: { 200: S.DeliveryStats, ...errorResponses("game-server", { body: false }) },
      },
    },
    async (request) => deliveryStats(engine.db, caller(request).gameId, clock.now()),
  );

  app.get(
    "/webhooks/deliveries",
    {
      schema: {
        tags,
        security,
        operationId: "listWebhookDeliveries",
        summary: "The delivery log, newest first, with each delivery's attempts",
        description:
          "One entry per event and endpoint: its status (pending, delivered, failed after every retry), the last attempts with the " +
          "receiver's status, error and latency. Filter by `status` and `endpointId`; page with `before` = the previous page's `nextBefore`. " +
          "Deliveries that ended are kept OFFERS_DELIVERY_RETENTION_DAYS (30) days; the ledger feed keeps every event.",
        querystring: S.WebhookDeliveryQuery,
        response: { 200: S.WebhookDeliveryPage, ...errorResponses("game-server", { body: false }) },
      },
    },
    async (request) => listDeliveries(engine.db, caller(request).gameId, request.query),
  );

  app.post(
    "/webhooks/deliveries/:deliveryId/replay",
    {
      schema: {
        tags,
        security,
        operationId: "replayWebhookDelivery",
        summary: "Send one delivery again (whatever its status), with the same webhook-id; its retry schedule starts over",
        params: z.object({ deliveryId: S.DeliveryId }),
        body: S.EmptyBody,
        response: { 200: S.WebhookReplayed, ...errorResponses("game-server", { codes: ["webhook-delivery-not-found"], body: true }) },
      },
    },
    async (request) => {
      await webhooks.replay(caller(request).gameId, request.params.deliveryId);
      return { replayed: 1 };
    },
  );

  app.post(
    "/webhooks/replay",
    {
      schema: {
        tags,
        security,
        operationId: "replayFailedWebhooks",
        summary: "Send again every failed delivery whose event happened in [from, to), of one endpoint if named; answers how many",
        body: S.WebhookReplayRequest,
        response: { 200: S.WebhookReplayed, ...errorResponses("game-server", { body: true }) },
      },
    },
    async (request) => ({ replayed: await webhooks.replayFailed(caller(request).gameId, request.body) }),
  );
};
