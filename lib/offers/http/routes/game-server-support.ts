/**
 * A game server's support acts on one of its players (x-client-id + x-api-key; the key's game
 * environment applies): a compensation grant, and expire, revoke, extend or make claimable an offer
 * instance. The engine functions of support's admin API, with the actor `game-server:<clientId>`:
 * the grant becomes a reward.granted event with source support like a person's, at once (four eyes
 * are for people: ../../engine/four-eyes), and each act is in the player's history with cause support.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import * as S from "../../contract";
import { toSupportGrant } from "../../engine/support-grants";
import { apiKeyAuth, serverCaller } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { OffersServices } from "../services";

const ACTIONS: Record<Exclude<S.SupportOfferAction, "extend">, { operationId: string; summary: string; description: string }> = {
  expire: {
    operationId: "expirePlayerOffer",
    summary: "Expire one of a player's open offers, with a reason",
    description:
      "inQueue, surfaced or viewed → expired; the slot it held goes to the queue. An expired offer answers as it is (changed false, nothing written). " +
      "A claimable offer does not expire (409 offer-transition-refused: revoke it instead), nor does a claimed one.",
  },
  revoke: {
    operationId: "revokePlayerOffer",
    summary: "Revoke one of a player's open offers, claimable ones too, with a reason",
    description: "Any open status → expired, recorded as `revoked`; the slot goes to the queue. An ended offer answers as it is (changed false); a claimed one is 409 offer-transition-refused.",
  },
  "make-claimable": {
    operationId: "makePlayerOfferClaimable",
    summary: "Make one of a player's surfaced or viewed offers claimable, with a reason",
    description: "surfaced or viewed → claimable, its trackers complete. A claimable offer answers as it is (changed false); a queued, claimed or expired one is 409 offer-transition-refused.",
  },
};

const HISTORY_NOTE =
  " Recorded in the player's history with cause support, the actor `game-server:<clientId>` and the reason. An instance of another player or " +
  "environment is 404 offer-not-found; a player this environment does not have is 404 player-not-found.";

/** How a game server's acts name their actor: its client id, which the key authenticated. */
const actorOf = (clientId: string) => `${S.GAME_SERVER_ACTOR_PREFIX}${clientId}`;

export const gameServerSupportRoutes: FastifyPluginAsyncZod<{ services: OffersServices }> = async (app, { services }) => {
  const { engine } = services;
  app.addHook("onRequest", apiKeyAuth(services));
  const tags = ["server"];
  const security = securityOf["game-server"];
  const actionCodes = ["player-not-found", "offer-not-found", "offer-transition-refused"] as const;

  app.post(
    "/player/rewards/grant",
    {
      schema: {
        tags,
        security,
        operationId: "grantRewardToPlayer",
        summary: "Grant a compensation reward to a player, with a reason",
        description:
          "One reward the game knows (one of its currencies for coins or loyalty_currency, or a reward of one of its offer definitions) and a " +
          "reason. Granted at once, whatever the game's support thresholds (they ask people for a second person, not the game's own server): " +
          "a ledger row and a reward.granted event with kind support, source support, actor `game-server:<clientId>` and the reason, " +
          "delivered by webhook and in the feed like a claim. The answer's grantId is the event's instanceId.",
        headers: S.ServerGrantHeaders,
        body: S.ServerGrantRequest,
        response: { 200: S.SupportGrantResponse, ...errorResponses("game-server", { codes: ["player-not-found", "unknown-reward", "idempotency-key-reused"], body: true }) },
      },
    },
    async (request, reply) => {
      const { gameId, clientId } = serverCaller(request);
      const key = request.headers["idempotency-key"];
      const outcome = await engine.requestSupportGrant({
        gameId,
        ...request.body,
        actor: actorOf(clientId),
        requester: "game-server",
        idempotencyKey: typeof key === "string" ? key : undefined,
      });
      if (outcome.replayed) reply.header("idempotent-replayed", "true");
      return { grant: toSupportGrant(outcome.grant, engine.clock.now()) };
    },
  );

  for (const [action, doc] of Object.entries(ACTIONS) as Array<[keyof typeof ACTIONS, (typeof ACTIONS)[keyof typeof ACTIONS]]>) {
    app.post(
      `/player/offers/:instanceId/${action}`,
      {
        schema: {
          tags,
          security,
          ...doc,
          description: doc.description + HISTORY_NOTE,
          params: S.ServerOfferParams,
          body: S.ServerOfferActionRequest,
          response: { 200: S.SupportOfferActionResponse, ...errorResponses("game-server", { codes: [...actionCodes], body: true }) },
        },
      },
      async (request) => {
        const { gameId, clientId } = serverCaller(request);
        const { playerId, reason } = request.body;
        return engine.supportOfferAction({ gameId, playerId, instanceId: request.params.instanceId, action, actor: actorOf(clientId), reason });
      },
    );
  }

  app.post(
    "/player/offers/:instanceId/extend",
    {
      schema: {
        tags,
        security,
        operationId: "extendPlayerOffer",
        summary: "Move one of a player's open offers' expiry later, with a reason",
        description:
          `inQueue, surfaced or viewed; the new expiry is ${S.SUPPORT_EXTEND_RULE_IN_WORDS} (else 400 expiry-out-of-range). The same expiry again answers ` +
          "as it is (changed false). A claimable, claimed or expired offer is 409 offer-transition-refused." +
          HISTORY_NOTE,
        params: S.ServerOfferParams,
        body: S.ServerExtendRequest,
        response: { 200: S.SupportOfferActionResponse, ...errorResponses("game-server", { codes: [...actionCodes, "expiry-out-of-range"], body: true }) },
      },
    },
    async (request) => {
      const { gameId, clientId } = serverCaller(request);
      const { playerId, reason, expiresAt } = request.body;
      return engine.supportOfferAction({ gameId, playerId, instanceId: request.params.instanceId, action: "extend", expiresAt: new Date(expiresAt), actor: actorOf(clientId), reason });
    },
  );
};
