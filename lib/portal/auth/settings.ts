// Settings shared by the next-auth handler, the guard and the shell: secret, cookie names, providers.
import "server-only";
import { getPortalEnv, type PortalEnv } from "@/lib/env/portal";
import { persistentSecret } from "@/lib/secrets";
import { loadPortalConfig, type PortalConfig } from "../portal-yaml";

export const devProviderId = "dev";
export const gitlabProviderId = "gitlab";
/** A signed-in session lasts this long (seconds); next-auth renews it while the user is active. */
export const sessionMaxAgeSeconds = 12 * 60 * 60;

export interface AuthSettings {
  secret: string;
  /** Secure cookies (and the __Secure- prefix) when the portal is served over TLS (NEXTAUTH_URL is https). */
  secureCookies: boolean;
  sessionCookieName: string;
  /** The portal's public origin, when NEXTAUTH_URL is set. */
  publicOrigin?: string;
  devLogin: boolean;
  gitlab?: { url: string; clientId: string; clientSecret: string };
}

export function authSettingsFromEnv(env: PortalEnv): AuthSettings {
  const secureCookies = env.NEXTAUTH_URL?.startsWith("https://") ?? false;
  return {
    secret: persistentSecret(env.DATA_DIR, "nextauth-secret", env.NEXTAUTH_SECRET),
    secureCookies,
    sessionCookieName: `${secureCookies ? "__Secure-" : ""}next-auth.session-token`,
    publicOrigin: env.NEXTAUTH_URL ? new URL(env.NEXTAUTH_URL).origin : undefined,
    devLogin: env.PORTAL_DEV_LOGIN,
    gitlab:
      env.GITLAB_CLIENT_ID && env.GITLAB_CLIENT_SECRET
        ? { url: env.GITLAB_URL.replace(/\/+$/, ""), clientId: env.GITLAB_CLIENT_ID, clientSecret: env.GITLAB_CLIENT_SECRET }
        : undefined,
  };
}

let cached: AuthSettings | undefined;
// Route handlers and pages are separate bundles with their own module instances: warn once per process.
const globalForWarning = globalThis as unknown as { __portalDevLoginWarned?: boolean };

export function getAuthSettings(): AuthSettings {
  if (!cached) {
    cached = authSettingsFromEnv(getPortalEnv());
    warnAboutDevLogin();
  }
  return cached;
}

export function getPortalConfig(): PortalConfig {
  return loadPortalConfig(getPortalEnv().PORTAL_CONFIG);
}

/** Loud warning when the development sign-in is on in a production start (anyone can sign in as anyone). */
export function warnAboutDevLogin(env: PortalEnv = getPortalEnv()): void {
  if (globalForWarning.__portalDevLoginWarned || !env.PORTAL_DEV_LOGIN || env.NODE_ENV !== "production") return;
  globalForWarning.__portalDevLoginWarned = true;
  const line = "!".repeat(78);
  console.warn(
    [
      line,
      "!!  PORTAL_DEV_LOGIN=1 in a production start: the development sign-in is ON.",
      "!!  Anyone who reaches this portal can sign in as any user, admin included.",
      "!!  Unset PORTAL_DEV_LOGIN unless this is a test environment.",
      line,
    ].join("\n"),
  );
}

/** Sign-in providers offered on the sign-in page, in order. */
export function enabledProviders(settings: AuthSettings, config: PortalConfig): { id: string; label: string }[] {
  const list: { id: string; label: string }[] = [];
  if (settings.gitlab) list.push({ id: gitlabProviderId, label: config.providers.gitlab.label });
  if (settings.devLogin) list.push({ id: devProviderId, label: config.providers.dev.label });
  return list;
}
