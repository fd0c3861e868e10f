/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and must be loaded by Node, not bundled; the same for the native-ish server libs.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "ioredis", "simple-git", "pino"],
  poweredByHeader: false,
  // `next dev` serves its scripts only to allowed hosts; the dev portal is opened at localhost or 127.0.0.1.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  typedRoutes: false,
};
export default nextConfig;
