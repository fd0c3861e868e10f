/** Routes of game clients (a player's game JWT, checked by this plugin's onRequest hook). */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { coreOf } from "../../engine";
import * as S from "../../schemas";
import { caller, jwtAuth } from "../plugins/auth";
import { jwtSecurity } from "../plugins/swagger";
import type { OffersServices } from "../services";
import { CLAIM_MESSAGE, claimWithKey } from "./claims";

export const gameClientRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  const { engine, tokens } = services;
  app.addHook("onRequest", jwtAuth(services));

  app.post(
    "/auth/one_time_token/generate",
    {
      schema: { tags: ["client"], summary: "One-time dashboard token (5 minutes, single use)", security: jwtSecurity, body: S.OneTimeTokenGenerateRequest, response: { 200: S.OneTimeTokenGenerateResponse } },
    },
    async (request) => {
      const { gameId, playerId } = caller(request);
      return { token: await tokens.generate(gameId, playerId!) };
    },
  );

  app.post(
    "/client/player/referrals",
    {
      schema: { tags: ["client"], summary: "The player's referrals (as referrer), newest first; claim a claimable one with kind referral", security: jwtSecurity, body: S.ClientReferralsRequest, response: { 200: S.ClientReferralsResponse } },
    },
    async (request) => {
      const { gameId, playerId } = caller(request);
      return { referrals: await engine.referralsOf(gameId, playerId!) };
    },
  );

  app.post(
    "/client/player/campaigns",
    {
      schema: { tags: ["client"], summary: "The player's offers, snapshot and currency data", security: jwtSecurity, body: S.ClientCampaignsRequest.optional(), response: { 200: S.ClientCampaignsResponse } },
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
        tags: ["client"],
        summary: "Claim the rewards of a claimable offer or referral",
        security: jwtSecurity,
        headers: S.ClaimHeaders,
        body: S.ClientClaimRequest,
        response: { 200: S.ClientClaimResponse },
      },
    },
    async (request, reply) => {
      const { gameId, playerId, via } = caller(request);
      await claimWithKey(engine, request, reply, gameId, playerId!, request.body, "client", via ?? "client");
      return { message: CLAIM_MESSAGE };
    },
  );
};
