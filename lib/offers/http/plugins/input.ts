/** The input boundary of every route: zod compilers, JSON bodies only, stored-text and identifier rules, the request id. */
import { isDeepStrictEqual } from "node:util";
import fastJson from "fast-json-stringify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { z } from "zod";
import { statusOf } from "../../errors";
import * as S from "../../contract";
import { findUnstorableText, type ValidationIssue } from "../storable-text";
import fastifyPlugin from "fastify-plugin";

export interface InputPluginOptions {
  /**
   * Every response is checked against the route's documented responses (../route-docs.ts): an
   * undocumented status or a body that does not match fails the request, and a success body must come
   * out of the fast serializer exactly as the zod schema encodes it (tests). Off, success bodies are
   * written by the fast serializer alone, and an error body that does not match is logged and sent as
   * it is: a gap in the document must not turn a 409 into a 500 for a player.
   */
  checkResponses?: boolean;
}

type RouteSchema = Parameters<typeof serializerCompiler>[0];

/**
 * A success body's serializer compiled from the zod schema's JSON Schema (fast-json-stringify, as
 * Fastify does for JSON Schema routes): it writes only the documented fields, without validating the
 * body against the schema on every response, which cost about a tenth of the campaigns fetch's CPU.
 * Tests validate every body (checkResponses), so a handler that breaks its schema fails there.
 */
function compileFastSerializer(route: RouteSchema): (data: unknown) => string {
  const schema = route.schema as z.ZodType;
  const json = z.toJSONSchema(schema, { io: "output", target: "draft-7", unrepresentable: "any" });
  return fastJson(json as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}

export const inputPlugin = fastifyPlugin<InputPluginOptions>(async (app, options) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler((route) => {
    const serialize = serializerCompiler(route as RouteSchema);
    if (Number(route.httpStatus) < 400) {
      const fast = compileFastSerializer(route as RouteSchema);
      if (!options.checkResponses) return fast;
      return (data: unknown) => {
        const checked = serialize(data);
        const written = fast(data);
        if (!isDeepStrictEqual(JSON.parse(written), JSON.parse(checked))) {
          const where = `${route.method} ${route.url} ${route.httpStatus}`;
          console.error(`the fast serializer wrote ${written}, the schema encodes ${checked}: ${where}`);
          throw new Error(`fast serializer differs from the schema: ${where}`);
        }
        return written;
      };
    }
    return (data: unknown) => {
      try {
        return serialize(data);
      } catch (error) {
        const where = `${route.method} ${route.url} ${route.httpStatus}: ${JSON.stringify(data)}`;
        if (options.checkResponses) {
          console.error(`error body not in the route's documented responses: ${where}`);
          throw error;
        }
        app.log.error({ err: error }, `error body not in the route's documented responses: ${where}`);
        return JSON.stringify(data);
      }
    };
  });
  if (options.checkResponses) {
    // A status the route does not document has no serializer at all: caught here instead.
    app.addHook("onSend", async (request, reply) => {
      const schema = request.routeOptions.schema;
      const documented = schema && !schema.hide ? (schema.response as Record<string, unknown> | undefined) : undefined;
      if (documented && !(String(reply.statusCode) in documented)) {
        const where = `${request.method} ${request.routeOptions.url} ${reply.statusCode}`;
        console.error(`status not in the route's documented responses: ${where}`);
        throw new Error(`undocumented status: ${where}`);
      }
    });
  }
  // Every body of this API is JSON; anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser("text/plain");

  // Set as the request arrives, so that every answer carries it, refusals and errors included;
  // callback hooks, as these run on every request: an async hook costs a promise and a tick.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });

  // One rule at the boundary for every string of every route (the stream and admin routes too):
  // before the route's schema runs, every string and object key of the body, the query and the path
  // must be text PostgreSQL can store unchanged (no U+0000, no lone surrogate), and every path
  // parameter, which in this API always names something, must be an identifier. Headers reach
  // storage only under rules of their own: the client id and the JWT's iss and sub are identifiers,
  // an Idempotency-Key is printable ASCII (its route schema).
  app.addHook("preValidation", (request, reply, done) => {
    const issues: ValidationIssue[] = [];
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(params)) {
      // "*" is the wildcard of the docs page's static files, not a name.
      if (name !== "*" && typeof value === "string" && !S.isIdentifier(value)) issues.push({ path: [name], message: S.IDENTIFIER_RULE });
    }
    issues.push(...findUnstorableText(request.query), ...findUnstorableText(request.body));
    if (issues.length > 0) {
      reply.code(statusOf["invalid-request"]).send({ message: "invalid-request", issues });
      return;
    }
    done();
  });
}, { name: "offers-input" });
