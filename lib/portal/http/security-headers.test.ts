/**
 * The portal's security headers: the pages' policy (a nonce per response, no inline script, no
 * framing, HSTS only over TLS), which requests the proxy gives it (pages, not API calls), and the
 * static headers of next.config.mjs on API answers and pages. The browser journey
 * e2e/security-headers.spec.ts checks the same through the production build.
 */
import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { unstable_doesMiddlewareMatch, unstable_getResponseFromNextConfig } from "next/experimental/testing/server";
import nextConfig from "@/next.config.mjs";
import { config as proxyConfig, proxy } from "@/proxy";
import { pageContentSecurityPolicy, pageSecurityHeaders } from "./page-security";

const directives = (policy: string) => new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));

describe("the pages' Content-Security-Policy", () => {
  it("lets run only scripts with this response's nonce in production, and nobody frame the page", () => {
    const policy = directives(pageContentSecurityPolicy({ nonce: "abc123", development: false, secure: false }));
    expect(policy.get("script-src")).toEqual(["'self'", "'nonce-abc123'", "'strict-dynamic'"]);
    expect(policy.get("style-src")).toEqual(["'self'", "'nonce-abc123'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
    expect(policy.get("img-src")).toContain("data:");
    expect(policy.has("upgrade-insecure-requests")).toBe(false);
  });

  it("adds eval and inline styles in development only, and the https upgrade only over TLS", () => {
    const dev = directives(pageContentSecurityPolicy({ nonce: "n", development: true, secure: false }));
    expect(dev.get("script-src")).toContain("'unsafe-eval'");
    expect(dev.get("script-src")).not.toContain("'unsafe-inline'");
    expect(dev.get("style-src")).toContain("'unsafe-inline'");
    expect(directives(pageContentSecurityPolicy({ nonce: "n", development: false, secure: true })).has("upgrade-insecure-requests")).toBe(true);
  });

  it("has a new nonce on every response, and HSTS only when the request came over TLS or the public address is https", () => {
    const plain = { development: false, publicOriginSecure: false };
    const nonceOf = (headers: Record<string, string>) => /'nonce-([^']+)'/.exec(headers["Content-Security-Policy"]!)?.[1];
    const first = pageSecurityHeaders(new Request("http://portal.test/catalog"), plain);
    const second = pageSecurityHeaders(new Request("http://portal.test/catalog"), plain);
    expect(nonceOf(first.response)).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceOf(first.response)).not.toBe(nonceOf(second.response));
    expect(first.request["Content-Security-Policy"]).toBe(first.response["Content-Security-Policy"]);
    expect(first.response["Strict-Transport-Security"]).toBeUndefined();
    const behindTls = pageSecurityHeaders(new Request("http://portal.test/catalog", { headers: { "x-forwarded-proto": "https" } }), plain);
    expect(behindTls.response["Strict-Transport-Security"]).toMatch(/^max-age=\d{7,}/);
    expect(behindTls.response["Content-Security-Policy"]).toContain("upgrade-insecure-requests");
    expect(pageSecurityHeaders(new Request("https://portal.test/catalog"), plain).response["Strict-Transport-Security"]).toBeTruthy();
    const plainBehindProxy = pageSecurityHeaders(new Request("https://portal.test/catalog", { headers: { "x-forwarded-proto": "http" } }), plain);
    expect(plainBehindProxy.response["Strict-Transport-Security"]).toBeUndefined();
    // TLS ended before the edge proxy, which says http; the public address is https.
    const publicHttps = pageSecurityHeaders(new Request("http://portal.test/catalog", { headers: { "x-forwarded-proto": "http" } }), { development: false, publicOriginSecure: true });
    expect(publicHttps.response["Strict-Transport-Security"]).toMatch(/^max-age=/);
    expect(publicHttps.response["Content-Security-Policy"]).not.toContain("upgrade-insecure-requests");
  });
});

describe("the proxy", () => {
  const runsFor = (url: string, headers: Record<string, string> = {}) =>
    unstable_doesMiddlewareMatch({ config: proxyConfig, url, headers, nextConfig });

  it("runs for pages, and not for API calls, the build's files, the icon or the probes", () => {
    for (const page of ["/", "/catalog", "/catalog/alpha", "/reviews/12", "/live-ops/demo-game/webhooks", "/rewards", "/rewards?token=x", "/auth/signin", "/audit"]) {
      expect(runsFor(`http://portal.test${page}`), page).toBe(true);
    }
    for (const other of ["/api", "/api/components", "/api/offers/games/g/players/p/watch", "/_next/static/chunks/main.js", "/_next/image", "/favicon.ico", "/icon.svg", "/health", "/metrics"]) {
      expect(runsFor(`http://portal.test${other}`), other).toBe(false);
    }
    // The router's prefetch of a page is an RSC payload, not a document.
    expect(runsFor("http://portal.test/catalog", { "next-router-prefetch": "1", rsc: "1" })).toBe(false);
    // Any path with a "%" still has its encoding checked, API included.
    expect(runsFor("http://portal.test/api/components/%ff")).toBe(true);
  });

  it("gives a page its policy on the response and on the request Next.js renders", () => {
    const response = proxy(new NextRequest("http://portal.test/catalog"));
    const policy = response.headers.get("content-security-policy");
    expect(policy).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(response.headers.get("x-middleware-request-content-security-policy")).toBe(policy);
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("leaves an API path with a decodable \"%\" to the static headers", () => {
    const response = proxy(new NextRequest("http://portal.test/api/components/caf%C3%A9"));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("content-security-policy")).toBeNull();
  });
});

describe("the static headers (next.config.mjs)", () => {
  const headersOf = async (path: string) => (await unstable_getResponseFromNextConfig({ url: `http://portal.test${path}`, nextConfig })).headers;

  it("refuse framing, sniffing and any document use of API answers and probes", async () => {
    for (const path of ["/api", "/api/components", "/api/offers/games/demo-game/players/p1/watch", "/health", "/metrics"]) {
      const headers = await headersOf(path);
      expect(headers.get("content-security-policy"), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(headers.get("x-frame-options"), path).toBe("DENY");
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
  });

  it("refuse framing and sniffing on pages, whose policy comes from the proxy; the rewards page sends no referrer to other sites", async () => {
    for (const path of ["/", "/catalog", "/rewards", "/rewards/redeem", "/auth/signin"]) {
      const headers = await headersOf(path);
      expect(headers.get("x-frame-options"), path).toBe("DENY");
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(headers.get("content-security-policy"), path).toBeNull();
    }
    expect((await headersOf("/")).get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect((await headersOf("/catalog")).get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect((await headersOf("/rewardsish")).get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect((await headersOf("/rewards")).get("referrer-policy")).toBe("same-origin");
    expect((await headersOf("/rewards/no-such-page")).get("referrer-policy")).toBe("same-origin");
    // The redeem link's redirect says no-referrer itself; a rule here would replace that.
    expect((await headersOf("/rewards/redeem")).get("referrer-policy")).toBeNull();
  });
});
