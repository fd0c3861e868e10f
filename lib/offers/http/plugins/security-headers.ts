/**
 * Security headers on every answer of the offers service. The API answers JSON and event streams, never
 * a page: nothing may run, load or frame it, and browsers must not guess a type. The docs page
 * (/v1/docs, ./swagger.ts) replaces the policy with one that lets its own scripts and styles load.
 * Four constant headers copied onto each reply in one hook: below what bench/offers-api/plugins-overhead.ts
 * can tell from noise (target 5 µs), where @fastify/helmet would set a dozen, most of them for pages.
 */
import fastifyPlugin from "fastify-plugin";

/** What an API answer may do as a document: nothing, and not inside a frame. */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-security-policy": API_CONTENT_SECURITY_POLICY,
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
});

/**
 * The docs page: swagger-ui's own files (no inline script) and the OpenAPI document, from this service
 * only; nobody may frame it. Styles may be inline: swagger-ui adds a <style> element and style attributes
 * of its own at run time, and a style cannot run script.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export const securityHeadersPlugin = fastifyPlugin(async (app) => {
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
}, { name: "offers-security-headers" });
