/** Routes of game servers (x-client-id + x-api-key, checked by this plugin's onRequest hook). */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { coreOf } from "../../engine";
import { publicGameId } from "../../environments";
import * as S from "../../schemas";
import { apiKeyAuth, caller } from "../plugins/auth";
import { apiKeySecurity } from "../plugins/swagger";
import type { OffersServices } from "../services";
import { CLAIM_MESSAGE, claimWithKey } from "./claims";

export const gameServerRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  const { engine, games, tokens } = services;
  app.addHook("onRequest", apiKeyAuth(services));

  app.post(
    "/player/campaigns/refresh",
    {
      schema: { tags: ["server"], summary: "A player's offers (all states), snapshot, currency data and a one-time token", security: apiKeySecurity, body: S.ServerCampaignsRefreshRequest, response: { 200: S.ServerCampaignsRefreshResponse } },
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
        tags: ["server"],
        summary: "Claim for a player; answers the rewards distributed",
        security: apiKeySecurity,
        headers: S.ClaimHeaders,
        body: S.ServerClaimRequest,
        response: { 200: S.ServerClaimResponse },
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
      schema: { tags: ["server"], summary: "Create or replace an offer definition", security: apiKeySecurity, params: S.OfferDefinitionParams, body: S.OfferDefinitionInput, response: { 200: S.OfferDefinition } },
    },
    async (request) => engine.upsertDefinition(caller(request).gameId, request.params.offerId, request.body),
  );

  app.post(
    "/player/offers/assign",
    {
      schema: { tags: ["server"], summary: "Assign an offer definition to a player (surfaced, or inQueue when the slots are full)", security: apiKeySecurity, body: S.AssignOfferRequest, response: { 200: S.Offer } },
    },
    async (request) => engine.assignOffer(caller(request).gameId, request.body.playerId, request.body.offerId),
  );

  app.post(
    "/player/snapshot",
    {
      schema: { tags: ["server"], summary: "Upsert a player's snapshot; recomputes offer trackers", security: apiKeySecurity, body: S.SnapshotPushRequest, response: { 200: S.SnapshotPushResponse } },
    },
    async (request) => engine.pushSnapshot(caller(request).gameId, request.body),
  );

  app.post(
    "/referrals",
    {
      schema: { tags: ["server"], summary: "Record a referral; the referrer claims it with kind referral", security: apiKeySecurity, body: S.ReferralCreateRequest, response: { 200: S.Referral } },
    },
    async (request) => engine.createReferral(caller(request).gameId, request.body),
  );

  app.put(
    "/currencies/:currencyId",
    {
      schema: { tags: ["server"], summary: "Create or replace a currency of the game (name and image shown in playerData)", security: apiKeySecurity, params: S.CurrencyParams, body: S.CurrencyInput, response: { 200: S.Currency } },
    },
    async (request) => {
      const { gameId } = caller(request);
      const currency = await games.upsertCurrency(gameId, request.params.currencyId, request.body);
      engine.invalidateGameSettings(gameId);
      return currency;
    },
  );
};
