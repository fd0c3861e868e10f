/** The player dashboard's one route: redeeming a one-time token needs no credentials but the token itself. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as S from "../../schemas";
import { errorResponses, securityOf } from "../route-docs";
import type { OffersServices } from "../services";

export const dashboardRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  app.post(
    "/auth/one_time_token/redeem",
    {
      schema: {
        tags: ["dashboard"],
        security: securityOf.public,
        operationId: "redeemOneTimeToken",
        summary: "Redeem a one-time token for a 15-minute access JWT",
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
