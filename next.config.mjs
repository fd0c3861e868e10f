// Security headers that are the same on every answer (docs/decisions/2026-11-28-security-headers.md). A page's
// Content-Security-Policy carries a nonce per response, so the proxy (proxy.ts) sets it, with HSTS over TLS.
// When two rules set one header, the later one wins, over a route's own too.
const everyAnswer = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];
// JSON, text and event streams: nothing may run or load if a browser opens one as a page.
const noDocumentPolicy = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];
// The players' pages send no referrer to other sites at all (their layout says the same in a <meta>); the
// redeem link's redirect sends none at all (it sets that itself, so no rule here covers it).
const portalReferrer = [{ key: "Referrer-Policy", value: "strict-origin-when-cross-origin" }];
const rewardsReferrer = [{ key: "Referrer-Policy", value: "same-origin" }];

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
  experimental: {
    // With a proxy (proxy.ts) Next buffers request bodies up to this size and cuts the rest off silently; the
    // largest body the portal takes is an incident compensation's list: 32 MB and its form (lib/portal/bulk-compensation.ts).
    proxyClientMaxBodySize: 32 * 1024 * 1024 + 64 * 1024,
  },
  // `next dev` serves its scripts only to allowed hosts; the dev portal is opened at localhost or 127.0.0.1.
  allowedDevOrigins: ["127.0.0.1", "localhost"],
  typedRoutes: false,
  // CI runs `tsc --noEmit` beside the build (.ci/run): it sets this so the same check is not run twice.
  typescript: { ignoreBuildErrors: process.env.PORTAL_BUILD_SKIP_TYPECHECK === "1" },
  // The portal's icon is app/icon.svg (linked from every page by Next's file convention); browsers and
  // tools that ask for /favicon.ico anyway get the same icon instead of a 404 in the logs.
  async headers() {
    return [
      { source: "/:path*", headers: everyAnswer },
      { source: "/api", headers: noDocumentPolicy },
      { source: "/api/:path*", headers: noDocumentPolicy },
      { source: "/health", headers: noDocumentPolicy },
      { source: "/metrics", headers: noDocumentPolicy },
      { source: "/((?!rewards(?:/|$)).*)", headers: portalReferrer },
      { source: "/rewards", headers: rewardsReferrer },
      { source: "/rewards/((?!redeem$).*)", headers: rewardsReferrer },
    ];
  },
  async rewrites() {
    return [{ source: "/favicon.ico", destination: "/icon.svg" }];
  },
};
export default nextConfig;
