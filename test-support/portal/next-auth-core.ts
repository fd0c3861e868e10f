/**
 * next-auth's core for tests: the portal's sign-in routes hand requests to it through next-auth/next,
 * which reads them from Next's request scope (next/headers) that a test does not have; the core takes a
 * Request itself. Its module is not in next-auth's exports map, hence the file path.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import { getAuthOptions } from "../../lib/portal/auth/options";

/** What next-auth's core answers (next-auth/core/types: ResponseInternal). */
interface NextAuthAnswer {
  status?: number;
  body?: unknown;
  redirect?: string;
  cookies?: Array<{ name: string; value: string }>;
}
type NextAuthCore = (params: { req: Request; options: NextAuthOptions }) => Promise<NextAuthAnswer>;

const { AuthHandler } = createRequire(import.meta.url)(path.resolve("node_modules/next-auth/core/index.js")) as { AuthHandler: NextAuthCore };

/** One call of next-auth's endpoint /api/auth/<path> on `base` with the portal's options (NEXTAUTH_URL and NEXTAUTH_SECRET set). */
export async function callNextAuth(base: string, pathname: string, init: { method?: string; cookie?: string; body?: Record<string, string> } = {}) {
  const url = new URL(`/api/auth/${pathname}`, base);
  const request = new Request(url, {
    method: init.method ?? "GET",
    headers: { host: url.host, "content-type": "application/json", ...(init.cookie ? { cookie: init.cookie } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return AuthHandler({ req: request, options: getAuthOptions() });
}

/** The development sign-in as a browser's form does it (CSRF token, then the callback POST); PORTAL_DEV_LOGIN=1. */
export async function devSignInThroughNextAuth(base: string, username: string, callbackUrl: string) {
  const csrf = await callNextAuth(base, "csrf");
  const csrfCookie = csrf.cookies!.find((c) => c.name.endsWith("next-auth.csrf-token"))!;
  const { csrfToken } = csrf.body as { csrfToken: string };
  const answer = await callNextAuth(base, "callback/dev", { method: "POST", cookie: `${csrfCookie.name}=${csrfCookie.value}`, body: { csrfToken, username, callbackUrl } });
  return { redirect: answer.redirect, status: answer.status, signedIn: Boolean(answer.cookies?.some((c) => c.name.endsWith("next-auth.session-token") && c.value)) };
}
