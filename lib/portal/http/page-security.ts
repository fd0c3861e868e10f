/**
 * The Content-Security-Policy of the portal's pages, with a fresh nonce per response (the proxy,
 * proxy.ts, sets it on the request, where Next.js reads the nonce and puts it on every script and
 * style element it renders, and on the response). The headers that never change (frame refusal,
 * nosniff, referrer policy) and the API's policy are static, in next.config.mjs.
 */
import { getPortalEnv } from "@/lib/env/portal";
import { isSecureRequest } from "./secure-request";

export interface PagePolicyOptions {
  nonce: string;
  /** `next dev`: React rebuilds server error stacks with eval, and styles are injected without a nonce. */
  development: boolean;
  /** Served over TLS: any http: subresource is fetched over https instead. */
  secure: boolean;
}

/**
 * Scripts: only those carrying this response's nonce, and what they load ('strict-dynamic'); 'self'
 * is for browsers without 'strict-dynamic' (newer ones ignore it). Style elements: nonce too. Style
 * attributes stay allowed (React's `style` prop, the charts): a nonce cannot cover an attribute, and
 * a style cannot run script. Images: offer and reward images live on games' hosts (https) or are data:
 * URLs. Fetches and the live view's EventSource go to the portal only.
 */
export function pageContentSecurityPolicy({ nonce, development, secure }: PagePolicyOptions): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (secure) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** HSTS: a year, this host and its subdomains; not preloaded (that is a promise to browsers' built-in lists). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

/** 128 random bits, base64: unguessable, and new for every response. */
export function newNonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
}

export interface PageSecurityContext {
  /** `next dev`. */
  development: boolean;
  /** The portal's public address (NEXTAUTH_URL) is https: browsers reach it over TLS, wherever TLS ends. */
  publicOriginSecure: boolean;
}

function contextFromEnv(): PageSecurityContext {
  const env = getPortalEnv();
  return { development: env.NODE_ENV === "development", publicOriginSecure: env.NEXTAUTH_URL?.startsWith("https://") ?? false };
}

export interface PageSecurityHeaders {
  /** Headers for the request Next.js renders (it reads the nonce from the policy there). */
  request: Record<string, string>;
  /** Headers for the response. */
  response: Record<string, string>;
}

/**
 * HSTS when the request came over TLS (X-Forwarded-Proto from the edge proxy, or the URL) or the public
 * address is https (TLS may end before the edge proxy, which then says http); a browser ignores HSTS
 * that came over plain HTTP anyway. The https upgrade of subresources only when this request is TLS.
 */
export function pageSecurityHeaders(request: Request, context: PageSecurityContext = contextFromEnv()): PageSecurityHeaders {
  const secure = isSecureRequest(request);
  const policy = pageContentSecurityPolicy({ nonce: newNonce(), development: context.development, secure });
  const response: Record<string, string> = { "Content-Security-Policy": policy };
  if (secure || context.publicOriginSecure) response["Strict-Transport-Security"] = STRICT_TRANSPORT_SECURITY;
  return { request: { "Content-Security-Policy": policy }, response };
}
