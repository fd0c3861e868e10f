/**
 * The player dashboard's one route: redeeming a one-time token needs no credentials but the token
 * itself. The portal's rewards page calls it from its server with its credential and the player's
 * address (../plugins/auth relayedClientAddress), so each player's address has its own budget.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as S from "../../contract";
import { relayedClientAddress } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { OffersServices } from "../services";

export const dashboardRoutes: FastifyPluginAsyncZod<{ services: OffersServices; adminToken: string }> = async (app, { services, adminToken }) => {
  app.decorateRequest("offersClientAddress", undefined);
  app.addHook("onRequest", relayedClientAddress(adminToken));
  app.post(
    "/auth/one_time_token/redeem",
    {
      schema: {
        tags: ["dashboard"],
        // No credential but the token; the portal adds its own to relay the player's address.
        security: [{}, ...securityOf.admin],
        operationId: "redeemOneTimeToken",
        summary: "Redeem a one-time token for a 15-minute access JWT",
        description:
          "Limited per client address (the client budget, 429 before the token is looked at: a refused redeem never spends it). " +
          "The portal's rewards page sends the player's address in `x-offers-client-address` with its admin token.",
        headers: S.OneTimeTokenRedeemHeaders,
        body: S.OneTimeTokenRedeemRequest,
        response: {
          200: S.OneTimeTokenRedeemResponse,
          // Signing the access JWT reads the game's key: a wrong OFFERS_SECRET_KEY is 503 here too.
          ...errorResponses("public", { codes: ["token-invalid", "token-used", "token-expired", "secret-key-mismatch"], body: true }),
        },
      },
    },
    async (request) => services.tokens.redeem(request.body.token, request.body.gameId),
  );
};
