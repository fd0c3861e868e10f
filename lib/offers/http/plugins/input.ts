/** The input boundary of every route: zod compilers, JSON bodies only, stored-text and identifier rules, the request id. */
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import * as S from "../../schemas";
import fastifyPlugin from "fastify-plugin";

export const inputPlugin = fastifyPlugin(async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Every body of this API is JSON; anything else is 415 rather than a string that fails validation.
  app.removeContentTypeParser("text/plain");

  app.addHook("onSend", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });

  // One rule at the boundary for every string of every route (the stream and admin routes too):
  // before the route's schema runs, every string and object key of the body, the query and the path
  // must be text PostgreSQL can store unchanged (no U+0000, no lone surrogate), and every path
  // parameter, which in this API always names something, must be an identifier. Headers reach
  // storage only under rules of their own: the client id and the JWT's iss and sub are identifiers,
  // an Idempotency-Key is printable ASCII (its route schema).
  app.addHook("preValidation", async (request, reply) => {
    const issues: S.ValidationIssue[] = [];
    const params = (request.params ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(params)) {
      // "*" is the wildcard of the docs page's static files, not a name.
      if (name !== "*" && typeof value === "string" && !S.isIdentifier(value)) issues.push({ path: [name], message: S.IDENTIFIER_RULE });
    }
    issues.push(...S.findUnstorableText(request.query), ...S.findUnstorableText(request.body));
    if (issues.length > 0) return reply.code(400).send({ message: "invalid-request", issues });
  });
}, { name: "offers-input" });
