/**
 * The admin API of support actions (the portal's support pages; Bearer OFFERS_ADMIN_TOKEN, the
 * environment by x-offers-environment): compensation grants to one player, the queue of grants
 * waiting for a second person, their approval or rejection, and the game's four-eyes thresholds.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { OffersEngine } from "../../engine";
import { toSupportGrant } from "../../engine/support-grants";
import { OffersError } from "../../errors";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";

const GameParams = z.object({ gameId: S.Identifier });
const PlayerParams = z.object({ gameId: S.Identifier, playerId: S.ExternalId });
const GrantParams = z.object({ gameId: S.Identifier, grantId: S.Identifier });
const GrantHeaders = S.AdminEnvironmentHeader.extend({
  "idempotency-key": S.IdempotencyKey.optional().describe(
    "Makes a retried grant safe: the same key with the same request answers the first grant (header Idempotent-Replayed: true), " +
      "never a second one; the same key with another request answers 422 idempotency-key-reused. Scoped per game environment and player.",
  ),
}).loose();

export const adminSupportRoutes: FastifyPluginAsyncZod<{ engine: OffersEngine; adminToken: string }> = async (app, { engine, adminToken }) => {
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;
  const grantOf = (row: Parameters<typeof toSupportGrant>[0]) => ({ grant: toSupportGrant(row, engine.clock.now()) });

  app.post(
    "/admin/games/:gameId/players/:playerId/support-grants",
    {
      schema: {
        headers: GrantHeaders,
        tags,
        security,
        operationId: "adminGrantCompensation",
        summary: "Grant a compensation reward to a player",
        description:
          "Support grants one reward (a currency of the game, or a reward of one of its offer definitions) with a reason. Below the game's " +
          "support thresholds it is granted at once: a ledger row and a reward.granted event (source support, with actor and reason), " +
          "delivered by webhook and in the feed. Above them it is stored pending (status pending) until a second person approves it.",
        params: PlayerParams,
        body: S.SupportGrantRequest,
        response: {
          200: S.SupportGrantResponse,
          ...errorResponses("admin", { codes: ["game-not-found", "player-not-found", "unknown-reward", "idempotency-key-reused"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const { gameId, playerId } = request.params;
      const key = request.headers["idempotency-key"];
      const outcome = await engine.requestSupportGrant({ gameId, playerId, ...request.body, idempotencyKey: typeof key === "string" ? key : undefined });
      if (outcome.replayed) reply.header("idempotent-replayed", "true");
      return grantOf(outcome.grant);
    },
  );

  app.get(
    "/admin/games/:gameId/support-grants",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminListSupportGrants",
        summary: "Support grants, newest first, and how many wait for approval",
        params: GameParams,
        querystring: S.SupportGrantsQuery,
        response: { 200: S.SupportGrantList, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => {
      const { gameId } = request.params;
      if (!(await engine.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
      const now = engine.clock.now();
      const { grants, pending } = await engine.listSupportGrants(gameId, request.query);
      return { grants: grants.map((row) => toSupportGrant(row, now)), pending };
    },
  );

  for (const decision of ["approve", "reject"] as const) {
    app.post(
      `/admin/games/:gameId/support-grants/:grantId/${decision}`,
      {
        schema: {
          headers: S.AdminEnvironmentHeader,
          tags,
          security,
          operationId: decision === "approve" ? "adminApproveSupportGrant" : "adminRejectSupportGrant",
          summary: decision === "approve" ? "Approve a pending support grant (grants it)" : "Reject a pending support grant, with a reason",
          description:
            "Never by the person who asked for it (403 four-eyes-same-person). Exactly one decision wins; the same decision by the same " +
            "person again answers the first. A grant already decided answers 409 support-grant-decided, one past its time 409 support-grant-expired.",
          params: GrantParams,
          body: decision === "approve" ? S.SupportDecisionRequest : S.SupportRejectRequest,
          response: {
            200: S.SupportGrantResponse,
            ...errorResponses("admin", { codes: ["support-grant-not-found", "support-grant-decided", "support-grant-expired", "four-eyes-same-person"], body: true }),
          },
        },
      },
      async (request) => {
        const { gameId, grantId } = request.params;
        const outcome = await engine.decideSupportGrant({ gameId, grantId, decision, actor: request.body.actor, reason: request.body.reason });
        return grantOf(outcome.grant);
      },
    );
  }

  app.get(
    "/admin/games/:gameId/support-thresholds",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetSupportThresholds",
        summary: "The game's four-eyes thresholds of support grants",
        params: GameParams,
        response: { 200: S.SupportThresholds, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => ({ rules: await engine.supportThresholds(request.params.gameId) }),
  );

  app.put(
    "/admin/games/:gameId/support-thresholds",
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminSetSupportThresholds",
        summary: "Replace the game's four-eyes thresholds of support grants",
        description:
          "Each rule names a reward kind (and optionally one reward id) and the amount above which a grant waits for a second person, or " +
          "\"always\". A grant needs approval when any rule that applies says so; no rule: grants are immediate. Applies to the next grant on every instance.",
        params: GameParams,
        body: S.SupportThresholds,
        response: { 200: S.SupportThresholds, ...errorResponses("admin", { codes: ["game-not-found"], body: true }) },
      },
    },
    async (request) => ({ rules: await engine.setSupportThresholds(request.params.gameId, request.body.rules) }),
  );
};
