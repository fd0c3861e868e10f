/**
 * The one error handler of the app: every error a route, a hook or the framework raises maps to
 * its answer here (domain errors by the status ../../errors gives them).
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { isDatabaseUnavailable } from "../../../db";
import { OffersError } from "../../errors";
import { JwtError } from "../../jwt";
import type * as S from "../../schemas";
import { ApiKeyRejected } from "../services";
import fastifyPlugin from "fastify-plugin";

function issuesOf(error: FastifyError): S.InvalidRequest["issues"] {
  if (hasZodFastifySchemaValidationErrors(error)) {
    return error.validation.map((v) => ({
      path: v.instancePath
        .split("/")
        .filter(Boolean)
        .map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
      message: v.message ?? "invalid",
    }));
  }
  return [{ path: [], message: error.message }];
}

function sendApiKeyError(reply: FastifyReply) {
  return reply.code(401).type("application/json; charset=utf-8").send(JSON.stringify("invalid-api-key"));
}

/**
 * Errors of the router, before any route (a Fastify constructor option): a path that is not
 * percent-encoded UTF-8 (e.g. %ED%A0%80, a lone surrogate) or a parameter over maxParamLength is
 * the same 400 as any other bad input.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_BAD_URL" || error.code === "FST_ERR_MAX_PARAM_LENGTH") {
    const message = error.code === "FST_ERR_BAD_URL" ? "the path is not valid percent-encoded UTF-8" : "a path parameter is too long";
    return reply.code(400).send({ message: "invalid-request", issues: [{ path: [], message }] });
  }
  request.log.error({ err: error }, "framework error");
  return reply.code(500).send({ message: "internal-error" });
}

export const errorsPlugin = fastifyPlugin(async (app) => {
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: "not-found" });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof JwtError) return reply.code(error.status).send({ message: error.code });
    if (error instanceof ApiKeyRejected) return sendApiKeyError(reply);
    if (error instanceof OffersError) {
      // secret-key-mismatch: this instance cannot open stored API keys; an operator must fix OFFERS_SECRET_KEY.
      if (error.status >= 500) request.log.error({ err: error }, error.message);
      return reply.code(error.status).send({ message: error.code });
    }
    if (error.validation || hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ message: "invalid-request", issues: issuesOf(error) });
    }
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
      case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
        return reply.code(400).send({ message: "invalid-request", issues: [{ path: [], message: error.message }] });
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return reply.code(413).send({ message: "payload-too-large" });
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return reply.code(415).send({ message: "unsupported-media-type" });
    }
    if (error instanceof SyntaxError) {
      return reply.code(400).send({ message: "invalid-request", issues: [{ path: [], message: error.message }] });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, "database unavailable");
      return reply.code(503).header("retry-after", "2").send({ message: "database-unavailable" });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.code(status).send({ message: error.code ?? "bad-request" });
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send({ message: "internal-error" });
  });
}, { name: "offers-errors" });
