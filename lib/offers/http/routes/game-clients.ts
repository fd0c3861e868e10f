/** Routes of game clients (a player's game JWT, checked by this plugin's onRequest hook). */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { coreOf } from "../../engine";
import * as S from "../../contract";
import { caller, jwtAuth } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { OffersServices } from "../services";
import { CLAIM_MESSAGE, claimWithKey } from "./claims";

export const gameClientRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  const { engine, tokens } = services;
  app.addHook("onRequest", jwtAuth(services));
  const tags = ["client"];
  const security = securityOf["game-client"];

  app.post(
    "/auth/one_time_token/generate",
    {
      schema: {
        tags,
        security,
        operationId: "generateOneTimeToken",
        summary: "One-time dashboard token (5 minutes, single use)",
        body: S.OneTimeTokenGenerateRequest,
        response: { 200: S.OneTimeTokenGenerateResponse, ...errorResponses("game-client", { body: true }) },
      },
    },
    async (request) => {
      const { gameId, playerId } = caller(request);
      return { token: await tokens.generate(gameId, playerId!) };
    },
  );

  app.post(
    "/client/player/referrals",
    {
      schema: {
        tags,
        security,
        operationId: "listReferrals",
        summary: "The player's referrals (as referrer), newest first; claim a claimable one with kind referral",
        body: S.ClientReferralsRequest,
        response: { 200: S.ClientReferralsResponse, ...errorResponses("game-client", { body: true }) },
      },
    },
    async (request) => {
      const { gameId, playerId } = caller(request);
      return { referrals: await engine.referralsOf(gameId, playerId!) };
    },
  );

  app.post(
    "/client/player/balances",
    {
      schema: {
        tags,
        security,
        operationId: "getBalances",
        summary: "Ours: when the player's balances were last reported by the game, and what was claimed since",
        description: "The balances of `playerData` are the game's last snapshot; rewards claimed after it are not in them until the game pushes the next one.",
        body: S.ClientBalancesRequest,
        response: { 200: S.ClientBalancesResponse, ...errorResponses("game-client", { body: true }) },
      },
    },
    async (request) => {
      const { gameId, playerId } = caller(request);
      return engine.balancesOf(gameId, playerId!);
    },
  );

  app.post(
    "/client/player/campaigns",
    {
      schema: {
        tags,
        security,
        operationId: "getCampaigns",
        summary: "The player's offers, snapshot and currency data",
        body: S.ClientCampaignsRequest.optional(),
        response: { 200: S.ClientCampaignsResponse, ...errorResponses("game-client", { body: true }) },
      },
    },
    async (request) => {
      const { gameId, playerId } = caller(request);
      const view = await engine.fetchCampaigns(gameId, playerId!, { viewing: request.body?.viewingCampaigns === true, includeQueued: false });
      return { player: { snapshot: coreOf(view.snapshot), data: view.playerData }, offers: view.offers, snapshot: view.snapshot, playerData: view.playerData };
    },
  );

  app.post(
    "/client/reward/claim",
    {
      schema: {
        tags,
        security,
        operationId: "claimReward",
        summary: "Claim the rewards of a claimable offer or referral",
        headers: S.ClaimHeaders,
        body: S.ClientClaimRequest,
        response: {
          200: S.ClientClaimResponse,
          ...errorResponses("game-client", { codes: ["offer-not-found", "offer-not-claimable", "idempotency-key-reused"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const { gameId, playerId, via } = caller(request);
      await claimWithKey(engine, request, reply, gameId, playerId!, request.body, "client", via ?? "client");
      return { message: CLAIM_MESSAGE };
    },
  );
};
