/**
 * The one error handler of the app: every error a route, a hook or the framework raises maps to
 * its answer here (domain errors by the status ../../errors gives them).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isDatabaseUnavailable } from "../../../db";
import { OffersError, statusOf } from "../../errors";
import { JwtError } from "../../jwt";
import type * as S from "../../contract";
import { AdminTokenRejected, ApiKeyRejected, MetricsTokenRejected } from "../services";
import { RateLimited } from "./rate-limit";
import fastifyPlugin from "fastify-plugin";

function issuesOf(error: FastifyError): S.InvalidRequest["issues"] {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.flatMap((v) => {
      const path = v.instancePath
        .split("/")
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
      // A key a strict body does not have: one issue per key, at the key's own path (as audience rules report them).
      if (v.keyword === "unrecognized_keys") return ((v.params as { keys?: string[] }).keys ?? []).map((key) => ({ path: [...path, key], message: `unknown key "${key}"` }));
      return [{ path, message: v.message ?? "invalid" }];
    });
  }
  return [{ path: [], message: error.message }];
}

function sendApiKeyError(reply: FastifyReply) {
  return reply.code(statusOf["invalid-api-key"]).type("application/json; charset=utf-8").send(JSON.stringify("invalid-api-key"));
}

/** Bad input of any part of the request: {message: "invalid-request", issues}. */
function sendInvalid(reply: FastifyReply, issues: S.InvalidRequest["issues"]) {
  return reply.code(statusOf["invalid-request"]).send({ message: "invalid-request", issues });
}

/**
 * Errors of the router, before any route (a Fastify constructor option): a path that is not
 * percent-encoded UTF-8 (e.g. %ED%A0%80, a lone surrogate) or a parameter over maxParamLength is
 * the same 400 as any other bad input.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    const message = error.code === "FST_ERR_BAD_URL" ? "the path is not valid percent-encoded UTF-8" : "a path parameter is too long";
    return sendInvalid(reply, [{ path: [], message }]);
  }
  request.log.error({ err: error }, "framework error");
  return reply.code(statusOf["internal-error"]).send({ message: "internal-error" });
}

export const errorsPlugin = fastifyPlugin(async (app) => {
  app.setNotFoundHandler((request, reply) => {
    reply.code(statusOf["not-found"]).send({ message: "not-found" });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof JwtError) return reply.code(error.status).send({ message: error.code });
    if (error instanceof ApiKeyRejected) return sendApiKeyError(reply);
    if (error instanceof AdminTokenRejected) return reply.code(statusOf["invalid-admin-token"]).send({ message: "invalid-admin-token" });
    // Retry-After and RateLimit-* are already on the reply.
    if (error instanceof RateLimited) return reply.code(statusOf["rate-limited"]).send({ message: "rate-limited" });
    if (error instanceof MetricsTokenRejected) return reply.code(statusOf["invalid-metrics-token"]).send({ message: "invalid-metrics-token" });
    if (error instanceof OffersError) {
      // secret-key-mismatch: this instance cannot open stored API keys; an operator must fix OFFERS_SECRET_KEY.
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      // A stale If-Match: the current ETag, in the body and as the header, to GET again or retry with.
      if (error.code === "precondition-failed" && error.fields.etag) {
        return reply.code(error.status).header("etag", error.fields.etag).send({ message: error.code, etag: error.fields.etag });
      }
      return reply.code(error.status).send({ message: error.code });
    }
    if (error.validation || hasZodFastifySchemaValidationErrors(error)) {
      return sendInvalid(reply, issuesOf(error));
    }
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
      case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
        return sendInvalid(reply, [{ path: [], message: error.message }]);
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return reply.code(statusOf["payload-too-large"]).send({ message: "payload-too-large" });
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return reply.code(statusOf["unsupported-media-type"]).send({ message: "unsupported-media-type" });
    }
    if (error instanceof SyntaxError) return sendInvalid(reply, [{ path: [], message: error.message }]);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(statusOf["database-unavailable"]).header("retry-after", "2").send({ message: "database-unavailable" });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ message: error.code ?? "bad-request" });
    request.log.error({ err: error }, "unhandled error");
    return reply.code(statusOf["internal-error"]).send({ message: "internal-error" });
  });
}, { name: "offers-errors" });
