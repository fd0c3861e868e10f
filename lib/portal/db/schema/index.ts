// The portal database schema: one file per feature, each re-exported here.
// Add your file and a line below, then `npx drizzle-kit generate --config drizzle.portal.config.ts`.
export * from "./tokens";
export * from "./favorites";
export * from "./scm";
export * from "./app-orders";
export * from "./audit";
export * from "./scorecards";
