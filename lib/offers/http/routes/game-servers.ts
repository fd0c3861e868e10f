/** Routes of game servers (x-client-id + x-api-key, checked by this plugin's onRequest hook). */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { coreOf } from "../../engine";
import { publicGameId } from "../../environments";
import * as S from "../../contract";
import { apiKeyAuth, caller } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { OffersServices } from "../services";
import { CLAIM_MESSAGE, claimWithKey } from "./claims";

export const gameServerRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  const { engine, games, tokens } = services;
  app.addHook("onRequest", apiKeyAuth(services));
  const tags = ["server"];
  const security = securityOf["game-server"];

  app.post(
    "/player/campaigns/refresh",
    {
      schema: {
        tags,
        security,
        operationId: "refreshPlayerCampaigns",
        summary: "A player's offers (all states), snapshot, currency data and a one-time token",
        body: S.ServerCampaignsRefreshRequest,
        response: { 200: S.ServerCampaignsRefreshResponse, ...errorResponses("game-server", { body: true }) },
      },
    },
    async (request) => {
      const { gameId } = caller(request);
      const { playerId, viewingCampaigns } = request.body;
      const view = await engine.fetchCampaigns(gameId, playerId, { viewing: viewingCampaigns === true, includeQueued: true });
      const token = await tokens.generate(gameId, playerId);
      return { player: { snapshot: coreOf(view.snapshot), data: view.playerData }, offers: view.offers, token, gameId: publicGameId(gameId), playerSnapshot: view.snapshot, playerData: view.playerData };
    },
  );

  app.post(
    "/reward/sdk/claim",
    {
      schema: {
        tags,
        security,
        operationId: "claimRewardForPlayer",
        summary: "Claim for a player; answers the rewards distributed",
        headers: S.ClaimHeaders,
        body: S.ServerClaimRequest,
        response: {
          200: S.ServerClaimResponse,
          ...errorResponses("game-server", { codes: ["offer-not-found", "offer-not-claimable", "idempotency-key-reused"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const { gameId } = caller(request);
      const { rewards } = await claimWithKey(engine, request, reply, gameId, request.body.playerId, request.body, "sdk", "server");
      return { message: CLAIM_MESSAGE, rewards };
    },
  );

  app.put(
    "/offers/definitions/:offerId",
    {
      schema: {
        tags,
        security,
        operationId: "putOfferDefinition",
        summary: "Create or replace an offer definition",
        description:
          "Answers the definition's ETag (header and body). If-Match is optional here, so a game server that writes its definitions at " +
          "every start keeps working: without it the definition is replaced as sent; with it, only the state it names is replaced " +
          "(412 precondition-failed with the current ETag otherwise; 404 offer-not-found when there is none).",
        params: S.OfferDefinitionParams,
        headers: S.IfMatchOptional,
        body: S.OfferDefinitionInput,
        response: { 200: S.OfferDefinition, ...errorResponses("game-server", { codes: ["offer-id-mismatch", "offer-not-found", "precondition-failed"], body: true }) },
      },
    },
    async (request, reply) => {
      const definition = await engine.upsertDefinition(caller(request).gameId, request.params.offerId, request.body, { ifMatch: request.headers["if-match"], required: false });
      reply.header("etag", definition.etag);
      return definition;
    },
  );

  app.post(
    "/player/offers/assign",
    {
      schema: {
        tags,
        security,
        operationId: "assignOffer",
        summary: "Assign an offer definition to a player (surfaced, or inQueue when the slots are full)",
        body: S.AssignOfferRequest,
        response: { 200: S.Offer, ...errorResponses("game-server", { codes: ["offer-not-found", "definition-archived", "offer-already-assigned"], body: true }) },
      },
    },
    async (request) => engine.assignOffer(caller(request).gameId, request.body.playerId, request.body.offerId),
  );

  app.post(
    "/player/snapshot",
    {
      schema: {
        tags,
        security,
        operationId: "pushPlayerSnapshot",
        summary: "Upsert a player's snapshot; recomputes offer trackers",
        body: S.SnapshotPushRequest,
        response: { 200: S.SnapshotPushResponse, ...errorResponses("game-server", { body: true }) },
      },
    },
    async (request) => engine.pushSnapshot(caller(request).gameId, request.body),
  );

  app.post(
    "/referrals",
    {
      schema: {
        tags,
        security,
        operationId: "createReferral",
        summary: "Record a referral; the referrer claims it with kind referral",
        body: S.ReferralCreateRequest,
        response: { 200: S.Referral, ...errorResponses("game-server", { codes: ["referral-self", "referral-exists"], body: true }) },
      },
    },
    async (request) => engine.createReferral(caller(request).gameId, request.body),
  );

  app.put(
    "/currencies/:currencyId",
    {
      schema: {
        tags,
        security,
        operationId: "putCurrency",
        summary: "Create or replace a currency of the game (name and image shown in playerData)",
        params: S.CurrencyParams,
        body: S.CurrencyInput,
        response: { 200: S.Currency, ...errorResponses("game-server", { body: true }) },
      },
    },
    async (request) => {
      const { gameId } = caller(request);
      const currency = await games.upsertCurrency(gameId, request.params.currencyId, request.body);
      engine.invalidateGameSettings(gameId);
      return currency;
    },
  );
};
