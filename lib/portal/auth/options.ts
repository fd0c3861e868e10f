// next-auth 4 options of the portal: GitLab (self-hosted base URL) and, only with PORTAL_DEV_LOGIN=1,
// a development sign-in. JWT sessions; roles are not stored in the token but resolved from
// portal.yaml on every use (lib/portal/auth/session-user.ts).
import "server-only";
import type { NextAuthOptions, Session } from "next-auth";
import type { JWT } from "next-auth/jwt";
import type { OAuthConfig } from "next-auth/providers/oauth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getPortalConfig, getAuthSettings, devProviderId, gitlabProviderId, sessionMaxAgeSeconds, type AuthSettings } from "./settings";
import { userFromToken, type PortalTokenClaims } from "./session-user";
import { fetchGitlabGroups, type GitlabProfile } from "./gitlab";
import type { PortalUser } from "../roles";
import { parseDevCredentials } from "./dev-credentials";
import { signInLanding } from "./redirect";

/** The portal's own callback URL of a provider: /auth/<provider>/callback (it forwards to next-auth's). */
export function portalCallbackUrl(origin: string, providerId: string): string {
  return `${origin}/auth/${providerId}/callback`;
}

function gitlabProvider(settings: AuthSettings, origin: string): OAuthConfig<GitlabProfile> {
  const gitlab = settings.gitlab!;
  const redirectUri = portalCallbackUrl(origin, gitlabProviderId);
  return {
    id: gitlabProviderId,
    name: "GitLab",
    type: "oauth",
    clientId: gitlab.clientId,
    clientSecret: gitlab.clientSecret,
    // The redirect URI registered in the GitLab application is the portal's /auth/gitlab/callback.
    authorization: { url: `${gitlab.url}/oauth/authorize`, params: { scope: "read_user api", redirect_uri: redirectUri } },
    token: {
      url: `${gitlab.url}/oauth/token`,
      // The code exchange must name the same redirect URI as the authorization request.
      async request({ client, params, checks }) {
        const tokens = await client.oauthCallback(redirectUri, params, checks);
        return { tokens };
      },
    },
    userinfo: `${gitlab.url}/api/v4/user`,
    checks: ["pkce", "state"],
    profile(profile) {
      return {
        id: String(profile.id),
        name: profile.name || profile.username,
        email: profile.email ?? null,
        image: profile.avatar_url ?? null,
      };
    },
  };
}

function devProvider() {
  return CredentialsProvider({
    id: devProviderId,
    name: "Development sign-in",
    credentials: {
      username: { label: "User name", type: "text" },
      groups: { label: "Groups", type: "text" },
    },
    async authorize(credentials) {
      // Refused unless PORTAL_DEV_LOGIN=1 at the time of the request.
      if (!getAuthSettings().devLogin) return null;
      const parsed = parseDevCredentials(credentials);
      if (!parsed) return null;
      return { id: parsed.username, name: parsed.username, groups: parsed.groups };
    },
  });
}

export type PortalSession = Session & { user: PortalUser };

let cached: NextAuthOptions | undefined;

export function getAuthOptions(): NextAuthOptions {
  if (cached) return cached;
  const settings = getAuthSettings();
  const origin = settings.publicOrigin ?? `http://localhost:${process.env.PORT ?? "3000"}`;
  const providers: NextAuthOptions["providers"] = [];
  if (settings.gitlab) providers.push(gitlabProvider(settings, origin));
  if (settings.devLogin) providers.push(devProvider());
  cached = {
    secret: settings.secret,
    useSecureCookies: settings.secureCookies,
    session: { strategy: "jwt", maxAge: sessionMaxAgeSeconds, updateAge: 60 * 60 },
    pages: { signIn: "/auth/signin", error: "/auth/signin" },
    providers,
    callbacks: {
      // next-auth's own would throw on a callbackUrl that is no URL (\\host/x): a 500.
      redirect: async ({ url, baseUrl }) => signInLanding(url, baseUrl),
      async jwt({ token, user, account, profile }) {
        if (!account || !user) return token;
        const claims = token as JWT & PortalTokenClaims;
        claims.provider = account.provider;
        if (account.provider === gitlabProviderId) {
          const gitlabProfile = profile as GitlabProfile | undefined;
          claims.username = gitlabProfile?.username ?? user.id;
          claims.groups = settings.gitlab && account.access_token ? await fetchGitlabGroups(settings.gitlab.url, account.access_token) : [];
        } else if (account.provider === devProviderId) {
          claims.username = user.id;
          claims.groups = (user as { groups?: string[] }).groups ?? [];
        }
        return claims;
      },
      async session({ session, token }) {
        const user = userFromToken(token, getPortalConfig(), getAuthSettings().devLogin);
        if (!user) return { expires: session.expires } as Session;
        return { ...session, user } as PortalSession;
      },
    },
  };
  return cached;
}

/** Whether a provider of the portal signs in by a form POST only (the development sign-in): its callback has no GET. */
export function isFormSignInProvider(providerId: string): boolean {
  // A provider's own id is in its options until next-auth merges them (CredentialsProvider's top-level id is "credentials").
  return getAuthOptions().providers.some((provider) => provider.type === "credentials" && ((provider as { options?: { id?: string } }).options?.id ?? provider.id) === providerId);
}
