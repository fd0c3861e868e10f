/**
 * Fastify app of the offers service, composed of plugins: cross-cutting ones (./http/plugins: the
 * close of unused connections at shutdown, security headers, CORS, the input boundary, the one error handler, the
 * OpenAPI document) and one route plugin per audience (./http/routes: probes, game clients, game
 * servers, the player dashboard, the portal's admin API; ./sse/routes.ts: the players' event stream).
 * Dependencies come in, the event stream too (`eventStream`, whose hub the stream and the admin API of
 * players need), so tests drive it with inject() on a real database. The OpenAPI document is generated
 * from the routes' zod schemas (GET /v1/openapi.json, docs page at /v1/docs).
 */
import { randomUUID } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import { OffersLogController } from "./http/log-controller";
import { silentConnectionsPlugin } from "./http/plugins/connections";
import { corsPlugin } from "./http/plugins/cors";
import { metricsPlugin } from "./http/plugins/metrics";
import { errorsPlugin, frameworkErrors } from "./http/plugins/errors";
import { inputPlugin } from "./http/plugins/input";
import { rateLimitPlugin } from "./http/plugins/rate-limit";
import { securityHeadersPlugin } from "./http/plugins/security-headers";
import { docsPagePlugin, openApiDocumentRoute, openApiPlugin } from "./http/plugins/swagger";
import { adminRoutes } from "./http/routes/admin";
import { adminLiveOpsRoutes } from "./http/routes/admin-live-ops";
import { adminRateLimitRoutes } from "./http/routes/admin-rate-limits";
import { adminSupportRoutes } from "./http/routes/admin-support";
import { adminBulkCompensationRoutes } from "./http/routes/admin-bulk-compensation";
import { adminTimelineRoutes } from "./http/routes/admin-timeline";
import { adminSupportActionRoutes } from "./http/routes/admin-support-actions";
import { adminWebhookRoutes } from "./http/routes/admin-webhooks";
import { dashboardRoutes } from "./http/routes/dashboard";
import { gameClientRoutes } from "./http/routes/game-clients";
import { gameServerRoutes } from "./http/routes/game-servers";
import { gameServerSupportRoutes } from "./http/routes/game-server-support";
import { probeRoutes } from "./http/routes/probes";
import { rewardDeliveryRoutes } from "./http/routes/reward-delivery";
import { createOffersServices, type OffersAppDeps, type OffersServices } from "./http/services";
import { eventStreamRoutes } from "./sse/routes";
import { closeStreamConnections } from "./sse/transport/http-stream";

export { ApiKeyRejected, type OffersAppDeps, type OffersServices } from "./http/services";

export async function buildOffersApp(deps: OffersAppDeps): Promise<FastifyInstance> {
  const services = createOffersServices(deps);
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.maxBodyBytes ?? 64 * 1024,
    requestIdHeader: "x-request-id",
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    // request.ip (logged as remoteAddress) comes from X-Forwarded-For only when the peer is a trusted proxy.
    ...(deps.trustProxy?.length ? { trustProxy: deps.trustProxy } : {}),
    // Path parameters are identifiers of up to 200 characters, up to 3 bytes each once percent-encoded.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 600 },
    frameworkErrors,
    logController: new OffersLogController(),
  });

  await app.register(silentConnectionsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(corsPlugin, { origins: deps.corsOrigins });
  await app.register(inputPlugin, { checkResponses: deps.checkResponses });
  await app.register(errorsPlugin);
  await app.register(rateLimitPlugin, { settings: services.rateLimits, redis: deps.rateLimit?.redis, keyPrefix: deps.rateLimit?.keyPrefix });
  await app.register(metricsPlugin, { token: deps.metricsToken });
  await app.register(probeRoutes, { database: deps.database, healthChecks: deps.healthChecks, healthDetails: deps.healthDetails });
  await app.register(openApiPlugin);
  await app.register(
    async (v1) => {
      await v1.register(openApiDocumentRoute);
      await v1.register(gameClientRoutes, { services });
      await v1.register(gameServerRoutes, { services });
      await v1.register(gameServerSupportRoutes, { services });
      await v1.register(rewardDeliveryRoutes, { services });
      await v1.register(dashboardRoutes, { services, adminToken: deps.adminToken });
      await v1.register(adminLiveOpsRoutes, { engine: services.engine, adminToken: deps.adminToken });
      await v1.register(adminRateLimitRoutes, { settings: services.rateLimits, adminToken: deps.adminToken });
      await v1.register(adminSupportRoutes, { engine: services.engine, adminToken: deps.adminToken });
      await v1.register(adminBulkCompensationRoutes, { engine: services.engine, adminToken: deps.adminToken });
      await v1.register(adminTimelineRoutes, { engine: services.engine, adminToken: deps.adminToken });
      // Without an event stream (tests of other parts) the app serves neither it nor the admin API of players.
      const eventStream = deps.eventStream;
      const hub = eventStream?.attach(services.engine);
      if (eventStream && hub) {
        await v1.register(eventStreamRoutes, { hub, verifyJwt: (request) => services.authenticateJwt(request) });
        await v1.register(adminRoutes, { engine: services.engine, hub, adminToken: deps.adminToken });
        // Streams never end by themselves: close them when the server closes, or close() would wait.
        v1.addHook("preClose", async () => {
          closeStreamConnections(app.server);
          await hub.closeAll("shutdown");
          // The streams' opens and closes waiting in memory, while the database is still open.
          await eventStream.flushActivity();
        });
      }
      await v1.register(adminWebhookRoutes, { services, adminToken: deps.adminToken });
      await v1.register(adminSupportActionRoutes, { services, adminToken: deps.adminToken });
    },
    { prefix: "/v1" },
  );
  await app.register(docsPagePlugin);

  // Used by tests and by main.ts (sweep timer) without rebuilding the services.
  app.decorate("offers", services);
  return app as unknown as FastifyInstance;
}

declare module "fastify" {
  interface FastifyInstance {
    offers: OffersServices;
  }
}
