/** @type {import('next').NextConfig} */
const nextConfig = {
  // PGlite ships WASM and must be loaded by Node, not bundled; the same for the native-ish server libs.
  serverExternalPackages: ["@electric-sql/pglite", "pg", "ioredis", "simple-git", "pino"],
  poweredByHeader: false,
  typedRoutes: false,
};
export default nextConfig;
