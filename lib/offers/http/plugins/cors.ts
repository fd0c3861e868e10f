/** CORS for browser game clients: the headers this API reads and the ones a page may see. */
import fastifyCors from "@fastify/cors";
import fastifyPlugin from "fastify-plugin";

export const corsPlugin = fastifyPlugin<{ origins?: string[] }>(async (app, options) => {
  await app.register(fastifyCors, {
    origin: options.origins && options.origins.length > 0 ? options.origins : true,
    methods: ["GET", "POST", "PUT"],
    allowedHeaders: ["authorization", "content-type", "x-game-jwt", "last-event-id", "cache-control", "x-request-id", "idempotency-key"].join(", "),
    exposedHeaders: ["x-request-id", "idempotent-replayed", "retry-after", "ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].join(", "),
    maxAge: 600,
  });
}, { name: "offers-cors" });
