/**
 * The admin API of support's acts on one player's offers (the portal's player page; Bearer
 * OFFERS_ADMIN_TOKEN, the environment by x-offers-environment): expire, revoke, extend or make
 * claimable an instance, re-offer a definition, and send the player's deliveries again. Each names
 * who acts and why; the history records both with cause `support`.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { OffersServices } from "../services";

const PlayerParams = z.object({ gameId: S.Identifier, playerId: S.ExternalId });
const InstanceParams = PlayerParams.extend({ instanceId: S.Identifier });

const ACTIONS: Record<Exclude<S.SupportOfferAction, "extend">, { operationId: string; summary: string; description: string }> = {
  expire: {
    operationId: "adminExpireOffer",
    summary: "Expire a player's open offer (support, with a reason)",
    description: "inQueue, surfaced or viewed → expired; the slot it held goes to the queue. An expired offer answers as it is (changed false). A claimable offer does not expire (409 offer-transition-refused: revoke it instead), nor does a claimed one.",
  },
  revoke: {
    operationId: "adminRevokeOffer",
    summary: "Revoke a player's open offer, claimable ones too (support, with a reason)",
    description: "Any open status → expired, recorded as `revoked`; the slot goes to the queue. An ended offer answers as it is (changed false); a claimed one is 409 offer-transition-refused.",
  },
  "make-claimable": {
    operationId: "adminMakeOfferClaimable",
    summary: "Make a player's surfaced or viewed offer claimable (support, with a reason)",
    description: "surfaced or viewed → claimable, its trackers complete. A claimable offer answers as it is (changed false); a queued, claimed or expired one is 409 offer-transition-refused.",
  },
};

export const adminSupportActionRoutes: FastifyPluginAsyncZod<{ services: OffersServices; adminToken: string }> = async (app, { services, adminToken }) => {
  const { engine, webhooks } = services;
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;
  const actionCodes = ["game-not-found", "player-not-found", "offer-not-found", "offer-transition-refused"] as const;

  for (const [action, doc] of Object.entries(ACTIONS) as Array<[keyof typeof ACTIONS, (typeof ACTIONS)[keyof typeof ACTIONS]]>) {
    app.post(
      `/admin/games/:gameId/players/:playerId/offers/:instanceId/${action}`,
      {
        schema: {
          headers: S.AdminEnvironmentHeader,
          tags,
          security,
          ...doc,
          params: InstanceParams,
          body: S.SupportOfferActionRequest,
          response: { 200: S.SupportOfferActionResponse, ...errorResponses("admin", { codes: [...actionCodes], body: true }) },
        },
      },
      async (request) => engine.supportOfferAction({ ...request.params, ...request.body, action }),
    );
  }

  app.post(
    "/admin/games/:gameId/players/:playerId/offers/:instanceId/extend",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminExtendOffer",
        summary: "Move a player's open offer's expiry later (support, with a reason)",
        description: `inQueue, surfaced or viewed; the new expiry is ${S.SUPPORT_EXTEND_RULE_IN_WORDS} (else 400 expiry-out-of-range). The same expiry again answers as it is (changed false). A claimable, claimed or expired offer is 409 offer-transition-refused.`,
        params: InstanceParams,
        body: S.SupportExtendRequest,
        response: { 200: S.SupportOfferActionResponse, ...errorResponses("admin", { codes: [...actionCodes, "expiry-out-of-range"], body: true }) },
      },
    },
    async (request) => {
      const { expiresAt, ...body } = request.body;
      return engine.supportOfferAction({ ...request.params, ...body, action: "extend", expiresAt: new Date(expiresAt) });
    },
  );

  app.post(
    "/admin/games/:gameId/players/:playerId/offers",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminReofferOffer",
        summary: "Re-offer: assign an offer definition to a player (support, with a reason)",
        description: "Surfaced when the player has a free slot, else queued; history cause support. 409 offer-already-assigned while the player has an open offer of the definition (a repeated submit assigns once).",
        params: PlayerParams,
        body: S.SupportAssignRequest,
        response: {
          200: S.SupportAssignResponse,
          ...errorResponses("admin", { codes: ["game-not-found", "player-not-found", "offer-not-found", "offer-already-assigned", "definition-archived"], body: true }),
        },
      },
    },
    async (request) => ({ offer: await engine.supportAssign({ ...request.params, ...request.body }) }),
  );

  app.post(
    "/admin/games/:gameId/players/:playerId/deliveries/replay",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminReplayPlayerDeliveries",
        summary: "Send a player's webhook deliveries again: all, or one (support, with a reason)",
        description:
          "Each with its webhook-id, its schedule from the start. A repeat within seconds of a replay sends nothing more and answers the same count. " +
          "A deliveryId that is not one of this player's is 404 webhook-delivery-not-found.",
        params: PlayerParams,
        body: S.SupportResendRequest,
        response: { 200: S.SupportResendResponse, ...errorResponses("admin", { codes: ["game-not-found", "player-not-found", "webhook-delivery-not-found"], body: true }) },
      },
    },
    async (request) => {
      const { gameId, playerId } = request.params;
      await engine.requirePlayer(gameId, playerId);
      return { replayed: await webhooks.replayPlayer(gameId, playerId, request.body.deliveryId) };
    },
  );
};
