// Types of next.config.mjs, for the tests that check its headers (lib/portal/http/security-headers.test.ts).
import type { NextConfig } from "next";
declare const nextConfig: NextConfig;
export default nextConfig;
