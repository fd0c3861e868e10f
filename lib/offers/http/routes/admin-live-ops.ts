/**
 * The admin API of live ops (the portal's offers console; Bearer OFFERS_ADMIN_TOKEN): definitions
 * with their targeting, their lifecycle (activate, pause, archive, restore to draft), a player
 * preview, audience sizes, surfacing jobs and the funnel.
 */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { OffersEngine } from "../../engine";
import { OffersError } from "../../errors";
import { toDefinition } from "../../engine/views";
import type { DefinitionChange } from "../../engine/engine";
import type { SurfacingJobRow } from "../../engine/surfacing-jobs";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";
import type { Precondition } from "../../preconditions";

const GameParams = z.object({ gameId: S.Identifier });
const DefinitionParams = z.object({ gameId: S.Identifier, offerId: S.ExternalId });
const Days = z.object({ days: z.coerce.number().int().min(1).max(90).default(14) });

const STATUS_OF: Record<S.DefinitionAction, S.DefinitionStatus> = { activate: "active", pause: "paused", archive: "archived", restore: "draft" };

export function toSurfacingJob(row: SurfacingJobRow): S.SurfacingJob {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    id: row.id,
    definitionVersion: row.definitionVersion,
    reason: row.reason,
    status: row.status,
    playersTotal: row.playersTotal,
    playersEvaluated: row.playersEvaluated,
    activations: row.activations,
    attempts: row.attempts,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toChange(change: DefinitionChange): S.AdminDefinitionChange {
  return { definition: change.definition, before: change.before ? toDefinition(change.before) : null, changed: change.changed, job: change.job ? toSurfacingJob(change.job) : null };
}

/** The precondition of an editor's change (../../preconditions): If-Match required on what exists. */
const required = (headers: { "if-match"?: string }): Precondition => ({ ifMatch: headers["if-match"], required: true });

export const adminLiveOpsRoutes: FastifyPluginAsyncZod<{ engine: OffersEngine; adminToken: string }> = async (app, { engine, adminToken }) => {
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;

  app.get(
    "/admin/games/:gameId/definitions",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminListDefinitions",
        summary: "A game's offer definitions with their funnel and claims per day",
        params: GameParams,
        querystring: Days,
        response: { 200: S.AdminDefinitionList, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => {
      const { gameId } = request.params;
      const { days } = request.query;
      if (!(await engine.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
      const [rows, funnels] = await Promise.all([engine.listDefinitions(gameId), engine.gameFunnels(gameId, days)]);
      const now = engine.clock.now();
      const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
      const emptyFunnel = { assigned: 0, surfaced: 0, viewed: 0, claimable: 0, claimed: 0, expired: 0, conversion: null };
      return {
        days,
        since: since.toISOString().slice(0, 10),
        definitions: rows.map((row) => {
          const summary = funnels.get(row.offerId);
          return {
            ...toDefinition(row),
            audienceSummary: S.describeAudience(row.audience),
            funnel: summary?.total ?? emptyFunnel,
            claimsPerDay: summary?.claimsPerDay ?? new Array<number>(days).fill(0),
          };
        }),
      };
    },
  );

  app.post(
    "/admin/games/:gameId/definitions",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminCreateDefinition",
        summary: "Create a definition (draft unless a status is given); answers its ETag",
        params: GameParams,
        body: S.AdminDefinitionCreate,
        response: { 200: S.AdminDefinitionChange, ...errorResponses("admin", { codes: ["game-not-found", "definition-exists"], body: true }) },
      },
    },
    async (request, reply) => {
      const { gameId } = request.params;
      const change = await engine.saveDefinition(gameId, request.body.offerId, request.body, { create: true, defaultStatus: "draft" });
      reply.header("etag", change.definition.etag);
      return toChange(change);
    },
  );

  app.get(
    "/admin/games/:gameId/definitions/:offerId",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetDefinition",
        summary: "A definition with its surfacing jobs; its ETag (If-Match of a change) in the header and the body",
        params: DefinitionParams,
        response: { 200: S.AdminDefinitionDetail, ...errorResponses("admin", { codes: ["offer-not-found"], body: false }) },
      },
    },
    async (request, reply) => {
      const { gameId, offerId } = request.params;
      const row = await engine.definitionRow(gameId, offerId);
      if (!row) throw new OffersError("offer-not-found", offerId);
      const jobs = await engine.surfacingJobs(gameId, offerId);
      const definition = toDefinition(row);
      reply.header("etag", definition.etag);
      return { definition, audienceSummary: S.describeAudience(row.audience), jobs: jobs.map(toSurfacingJob) };
    },
  );

  app.put(
    "/admin/games/:gameId/definitions/:offerId",
    {
      schema: {
        tags,
        security,
        operationId: "adminReplaceDefinition",
        summary: "Replace a definition; instances already given keep their copy",
        description:
          "Replacing an existing definition requires If-Match with its ETag: 428 precondition-required without, 412 precondition-failed " +
          "(with the current ETag) when someone changed it since. A definition that does not exist yet is created as a draft without " +
          "If-Match (a second creation of the same id then finds it and needs one); If-Match naming one that does not exist is 404 offer-not-found.",
        params: DefinitionParams,
        headers: S.IfMatchRequired.extend(S.AdminEnvironmentHeader.shape),
        body: S.OfferDefinitionInput,
        response: {
          200: S.AdminDefinitionChange,
          ...errorResponses("admin", { codes: ["game-not-found", "offer-not-found", "offer-id-mismatch", "precondition-failed", "precondition-required"], body: true }),
        },
      },
    },
    async (request, reply) => {
      const { gameId, offerId } = request.params;
      const change = await engine.saveDefinition(gameId, offerId, request.body, { precondition: required(request.headers), defaultStatus: "draft" });
      reply.header("etag", change.definition.etag);
      return toChange(change);
    },
  );

  for (const action of S.DefinitionAction.options) {
    app.post(
      `/admin/games/:gameId/definitions/:offerId/${action}`,
      {
        schema: {
          tags,
          security,
          operationId: `admin${action[0].toUpperCase()}${action.slice(1)}Definition`,
          summary: `${action[0].toUpperCase()}${action.slice(1)} a definition (${STATUS_OF[action]})${action === "activate" ? "; queues its surfacing job when its window is open" : ""}`,
          description: "Requires If-Match with the definition's ETag: 428 precondition-required without, 412 precondition-failed (with the current ETag) when it is stale.",
          params: DefinitionParams,
          headers: S.IfMatchRequired.extend(S.AdminEnvironmentHeader.shape),
          response: {
            200: S.AdminDefinitionChange,
            ...errorResponses("admin", { codes: ["game-not-found", "offer-not-found", "precondition-failed", "precondition-required", "definition-archived"], body: true }),
          },
        },
      },
      async (request, reply) => {
        const { gameId, offerId } = request.params;
        const change = await engine.changeDefinitionStatus(gameId, offerId, STATUS_OF[action], required(request.headers));
        reply.header("etag", change.definition.etag);
        return toChange(change);
      },
    );
  }

  app.post(
    "/admin/games/:gameId/definitions/:offerId/preview",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminPreviewDefinition",
        summary: "Would the definition surface for this player now, and if not, which condition fails",
        params: DefinitionParams,
        body: S.SurfacingPreviewRequest,
        response: { 200: S.SurfacingPreview, ...errorResponses("admin", { codes: ["offer-not-found", "player-not-found"], body: true }) },
      },
    },
    async (request) => engine.previewSurfacing(request.params.gameId, request.params.offerId, request.body.playerId),
  );

  app.get(
    "/admin/games/:gameId/definitions/:offerId/funnel",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminDefinitionFunnel",
        summary: "Assigned, surfaced, viewed, claimable, claimed, expired and conversion: overall, per day and per variant",
        params: DefinitionParams,
        querystring: Days,
        response: { 200: S.DefinitionFunnel, ...errorResponses("admin", { codes: ["offer-not-found"], body: false }) },
      },
    },
    async (request) => {
      const { gameId, offerId } = request.params;
      const row = await engine.definitionRow(gameId, offerId);
      if (!row) throw new OffersError("offer-not-found", offerId);
      const funnel = await engine.definitionFunnel(gameId, offerId, { days: request.query.days, variantOrder: row.variants?.map((v) => v.variantId) });
      return { days: request.query.days, ...funnel };
    },
  );

  app.get(
    "/admin/games/:gameId/definitions/:offerId/jobs",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminDefinitionJobs",
        summary: "Surfacing jobs of a definition, newest first (progress)",
        params: DefinitionParams,
        response: { 200: z.object({ jobs: z.array(S.SurfacingJob) }), ...errorResponses("admin", { body: false }) },
      },
    },
    async (request) => ({ jobs: (await engine.surfacingJobs(request.params.gameId, request.params.offerId)).map(toSurfacingJob) }),
  );

  app.post(
    "/admin/games/:gameId/audience/count",
    {
      schema: { headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminCountAudience",
        summary: "How many of the game's players an audience matches now",
        params: GameParams,
        body: S.AudienceCountRequest,
        response: { 200: S.AudienceCount, ...errorResponses("admin", { codes: ["game-not-found"], body: true }) },
      },
    },
    async (request) => {
      const { audience, rollout, offerId } = request.body;
      return engine.audienceSize(request.params.gameId, audience, rollout !== undefined && offerId ? { percent: rollout, offerId } : undefined);
    },
  );
};
