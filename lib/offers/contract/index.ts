/**
 * Every shape of the offers API, one zod schema each; types are z.infer of these.
 * The Fastify routes, the OpenAPI document and the typed client all use these same schemas.
 * Field names follow spec/interface.md exactly; shapes the interface leaves open follow DESIGN.
 * One module per area; schemas and their types only (the audience rule's grammar included: its schema is its validator).
 */
export { Environment, ENVIRONMENTS } from "../environments";
export * from "./scalars";
export * from "./rewards";
export * from "./players";
export * from "./games";
export * from "./offers";
export * from "./audience-rule";
export * from "./definitions";
export * from "./claims";
export * from "./tokens";
export * from "./referrals";
export * from "./reward-events";
export * from "./webhooks";
export * from "./concurrency";
export * from "./errors";
export * from "./admin";
export * from "./live-ops";
export * from "./support";
export * from "./timeline";
export * from "./support-actions";
export * from "./server-support";
export * from "./bulk-compensation";
