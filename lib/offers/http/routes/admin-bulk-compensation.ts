/**
 * The admin API of incident compensation in bulk (the portal's support pages; Bearer
 * OFFERS_ADMIN_TOKEN, the environment by x-offers-environment): a preview, the job asked for
 * (always waiting for a second person), its approval or rejection, progress, cancel and result.
 */
import { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { OffersEngine } from "../../engine";
import { bulkJob, bulkJobWithResult, bulkResultCsv, describeBulkJobs, type BulkJobRow } from "../../engine/bulk-compensation";
import { OffersError } from "../../errors";
import * as S from "../../contract";
import { adminAuth, adminEnvironment } from "../plugins/auth";
import { errorResponses, securityOf } from "../route-docs";

const GameParams = z.object({ gameId: S.Identifier });
const JobParams = z.object({ gameId: S.Identifier, jobId: S.Identifier });
const CreateHeaders = S.AdminEnvironmentHeader.extend({
  "idempotency-key": S.IdempotencyKey.optional().describe(
    "Makes a retried request safe (a double click, a retry after a timeout): the same key with the same request answers the first job " +
      "(header Idempotent-Replayed: true), never a second one; the same key with another request answers 422 idempotency-key-reused. Scoped per game environment.",
  ),
}).loose();
/** A list of a million ids as JSON (escaped line breaks and quotes included) fits; larger bodies answer 413. */
const BULK_BODY_LIMIT = Math.ceil(S.BULK_MAX_LIST_BYTES * 1.25) + 64 * 1024;

export const adminBulkCompensationRoutes: FastifyPluginAsyncZod<{ engine: OffersEngine; adminToken: string }> = async (app, { engine, adminToken }) => {
  app.addHook("onRequest", adminAuth(adminToken));
  app.addHook("preHandler", adminEnvironment());
  const tags = ["admin"];
  const security = securityOf.admin;
  const jobOf = async (row: BulkJobRow) => ({ job: (await describeBulkJobs(engine.db, [row], engine.clock.now()))[0]! });
  const base = "/admin/games/:gameId/bulk-compensations";
  const askCodes = ["game-not-found", "unknown-reward", "bulk-too-many-players"] as const;

  app.post(
    `${base}/preview`,
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminPreviewBulkCompensation",
        summary: "Preview an incident compensation (nothing is stored or granted)",
        description:
          `How many players would get the reward and the total, and what of the list is not granted: ids that break the id rule, repeats ` +
          `(counted once), ids of no player of this game environment. A list holds ${S.BULK_LIMIT_IN_WORDS}.`,
        params: GameParams,
        body: S.BulkCompensationRequest,
        response: { 200: S.BulkPreviewResponse, ...errorResponses("admin", { codes: askCodes, body: true }) },
      },
    },
    async (request) => ({ preview: await engine.previewBulkCompensation({ gameId: request.params.gameId, ...request.body }) }),
  );

  app.post(
    base,
    {
      bodyLimit: BULK_BODY_LIMIT,
      schema: {
        headers: CreateHeaders,
        tags,
        security,
        operationId: "adminRequestBulkCompensation",
        summary: "Ask for an incident compensation (waits for a second person's approval)",
        description:
          "Stores the job pending with its players (resolved now: the preview is exactly who is granted). Always four eyes: it runs once " +
          "someone other than the requester approves it. Each player is then granted once: a ledger row and a reward.granted event " +
          "(source support, actor, approvedBy, reason) delivered by webhook. A list or audience naming no player answers 400 bulk-no-players.",
        params: GameParams,
        body: S.BulkCompensationRequest,
        response: { 200: S.BulkCompensationResponse, ...errorResponses("admin", { codes: [...askCodes, "bulk-no-players", "idempotency-key-reused"], body: true }) },
      },
    },
    async (request, reply) => {
      const key = request.headers["idempotency-key"];
      const outcome = await engine.requestBulkCompensation({ gameId: request.params.gameId, ...request.body, idempotencyKey: typeof key === "string" ? key : undefined });
      if (outcome.replayed) reply.header("idempotent-replayed", "true");
      return jobOf(outcome.job);
    },
  );

  app.get(
    base,
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminListBulkCompensations",
        summary: "Incident compensations, newest first, and how many wait for approval",
        params: GameParams,
        querystring: S.BulkCompensationsQuery,
        response: { 200: S.BulkCompensationList, ...errorResponses("admin", { codes: ["game-not-found"], body: false }) },
      },
    },
    async (request) => {
      const { gameId } = request.params;
      if (!(await engine.gameSettings(gameId)).exists) throw new OffersError("game-not-found", gameId);
      const { jobs, pending } = await engine.listBulkCompensations(gameId, request.query);
      return { jobs: await describeBulkJobs(engine.db, jobs, engine.clock.now()), pending };
    },
  );

  app.get(
    `${base}/:jobId`,
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminGetBulkCompensation",
        summary: "An incident compensation: its preview, status and progress (granted / total)",
        params: JobParams,
        response: { 200: S.BulkCompensationResponse, ...errorResponses("admin", { codes: ["bulk-job-not-found"], body: false }) },
      },
    },
    async (request) => jobOf(await bulkJob(engine.db, request.params.gameId, request.params.jobId)),
  );

  for (const decision of ["approve", "reject"] as const) {
    app.post(
      `${base}/:jobId/${decision}`,
      {
        schema: {
          headers: S.AdminEnvironmentHeader,
          tags,
          security,
          operationId: decision === "approve" ? "adminApproveBulkCompensation" : "adminRejectBulkCompensation",
          summary: decision === "approve" ? "Approve a pending incident compensation (it starts granting)" : "Reject a pending incident compensation, with a reason",
          description:
            "Never by the person who asked for it (403 four-eyes-same-person). Exactly one decision wins; the same decision by the same person " +
            "again answers the first. A job already decided answers 409 bulk-job-decided, one past its time 409 bulk-job-expired.",
          params: JobParams,
          body: decision === "approve" ? S.BulkDecisionRequest : S.BulkRejectRequest,
          response: {
            200: S.BulkCompensationResponse,
            ...errorResponses("admin", { codes: ["bulk-job-not-found", "bulk-job-decided", "bulk-job-expired", "four-eyes-same-person"], body: true }),
          },
        },
      },
      async (request) => {
        const { gameId, jobId } = request.params;
        return jobOf((await engine.decideBulkCompensation({ gameId, jobId, decision, actor: request.body.actor, reason: request.body.reason })).job);
      },
    );
  }

  app.post(
    `${base}/:jobId/cancel`,
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminCancelBulkCompensation",
        summary: "Cancel a pending or running incident compensation, with a reason",
        description:
          "Players granted so far stay granted; once this answers, nobody else is granted (batches in flight end first). Cancelling again " +
          "answers the cancelled job; a job that has ended answers 409 bulk-job-finished.",
        params: JobParams,
        body: S.BulkCancelRequest,
        response: { 200: S.BulkCompensationResponse, ...errorResponses("admin", { codes: ["bulk-job-not-found", "bulk-job-finished"], body: true }) },
      },
    },
    async (request) => {
      const { gameId, jobId } = request.params;
      return jobOf((await engine.cancelBulkCompensation({ gameId, jobId, actor: request.body.actor, reason: request.body.reason })).job);
    },
  );

  app.get(
    `${base}/:jobId/result`,
    {
      schema: {
        headers: S.AdminEnvironmentHeader,
        tags,
        security,
        operationId: "adminBulkCompensationResult",
        summary: "An incident compensation's result as CSV: playerId, outcome (granted, pending, cancelled, unknown), grantId",
        params: JobParams,
        response: { 200: z.string().describe("text/csv, one line per player in id order"), ...errorResponses("admin", { codes: ["bulk-job-not-found", "bulk-result-deleted"], body: false }) },
      },
    },
    async (request, reply) => {
      const job = await bulkJobWithResult(engine.db, request.params.gameId, request.params.jobId);
      reply.type("text/csv; charset=utf-8").header("content-disposition", `attachment; filename="${job.jobId}.csv"`);
      // Streamed page by page; Fastify sends a stream as is (the 200 schema documents the text it carries).
      return reply.send(Readable.from(bulkResultCsv(engine.db, job.jobId)) as unknown as string);
    },
  );
};
