/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and must be loaded by Node, not bundled; the same for the native-ish server libs.
  // The OpenTelemetry SDK patches modules as Node loads them, and prom-client keeps process-wide state: both stay unbundled.
  serverExternalPackages: [
    "@electric-sql/pglite", "pg", "ioredis", "simple-git", "pino", "prom-client",
    "@opentelemetry/sdk-node", "@opentelemetry/instrumentation-http", "@opentelemetry/instrumentation-pg",
    "@opentelemetry/instrumentation-undici", "@opentelemetry/instrumentation-ioredis",
  ],
  poweredByHeader: false,
  // `next dev` serves its scripts only to allowed hosts; the dev portal is opened at localhost or 127.0.0.1.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  typedRoutes: false,
  // The portal's icon is app/icon.svg (linked from every page by Next's file convention); browsers and
  // tools that ask for /favicon.ico anyway get the same icon instead of a 404 in the logs.
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
};
export default nextConfig;
