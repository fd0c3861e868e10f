/** Probes (outside /v1, not in the OpenAPI document): liveness and readiness, with the degradable parts. */
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { OffersAppDeps } from "../services";

export const probeRoutes: FastifyPluginAsyncZod<Pick<OffersAppDeps, "database" | "healthChecks" | "healthDetails">> = async (app, options) => {
  const pingDatabase = async (): Promise<boolean> => {
    try {
      await options.database.ping();
      return true;
    } catch {
      return false;
    }
  };
  const degradable = () => {
    const parts = options.healthChecks?.() ?? {};
    return { parts, status: Object.values(parts).includes("degraded") ? "degraded" : "ok" };
  };
  // Figures beside the status (the delivery lag); a failure to read them leaves them out.
  const details = async (): Promise<Record<string, unknown>> => {
    try {
      return (await options.healthDetails?.()) ?? {};
    } catch {
      return {};
    }
  };
  // /health and /ready answer alike: the service is only as ready as its database.
  for (const path of ["/health", "/ready"]) {
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      const { parts, status } = degradable();
      if (await pingDatabase()) return reply.send({ status, database: "ok", ...parts, ...(path === "/health" ? await details() : {}) });
      return reply.code(503).send({ status: "unavailable", database: "unavailable", ...parts, message: "database-unavailable" });
    });
  }
};
