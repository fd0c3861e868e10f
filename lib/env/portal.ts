/**
 * Settings of the portal: the shared base plus its own. The portal parses them once at start
 * (instrumentation.ts), which refuses to serve with a message naming each bad variable and what it accepts.
 * The offers service's own settings (OFFERS_PORT, …) are not read here, so a bad one cannot stop the portal.
 */
import { z } from "zod";
import { baseSchema } from "./base";
import { flag, integer, oneOf, optionalUrl, port, token, url } from "./fields";
import { parseSettings, rememberBaseEnv, type SettingsRule } from "./parse";
import { devSignInListenProblem, gitlabProviderHasToken, gitlabSignInComplete } from "./rules";

export const portalOwnSchema = z.object({
  PORT: port().default(3000).describe("HTTP port of the portal. Example: `3000`."),
  PORTAL_HOST: z
    .string()
    .trim()
    .min(1, { error: "an address, not empty" })
    .default("127.0.0.1")
    .describe("Listen address; the start scripts pass it to Next.js as `--hostname` (a portal started by hand must pass the same). The development sign-in is refused on an address other than loopback. Example: `0.0.0.0` in a container."),
  PORTAL_DATABASE_URL: optionalUrl().describe(
    "PostgreSQL URL of the portal database (migrations in `__portal_migrations`). Unset: PGlite under `DATA_DIR/portal` (one instance only). Example: `postgres://portal:…@db.internal:5432/portal`.",
  ),
  OFFERS_BASE_URL: url("http://127.0.0.1:4000").describe("The offers service as the portal's server reaches it (its admin API, the rewards page's calls). Example: `http://offers:4000`."),
  NEXTAUTH_URL: optionalUrl().describe("Public URL of the portal (sign-in callbacks); `https` also turns on HSTS and secure cookies. Example: `https://portal.example.com`."),
  NEXTAUTH_SECRET: token()
    .optional()
    .describe("Session signing secret, the same on every portal instance. Unset: generated once into `DATA_DIR/secrets/nextauth-secret`. Example: the output of `openssl rand -base64 32`."),
  PORTAL_DEV_LOGIN: flag().describe(
    "The development sign-in (any name, no password, admin included); `npm run dev` sets it. Never in production: a production start warns loudly, and it is refused on a non-loopback `PORTAL_HOST`. Example: `1`.",
  ),
  PORTAL_DEV_LOGIN_ANY_HOST: flag().describe(
    "Allows the development sign-in on a `PORTAL_HOST` other than loopback (a shared test host reached on purpose); without it such a start is refused. Example: `1`.",
  ),
  PORTAL_DEV_TOKEN: token()
    .optional()
    .describe("Seeds a personal API token of the admin user `admin` (development and CI scripts). Example: `dev-admin-token-change-me`."),
  PORTAL_CONFIG: z
    .string()
    .min(1, { error: "a file path, not empty" })
    .default("config/portal.yaml")
    .describe("Roles (by user and group) and providers file. Example: `/etc/portal/portal.yaml`."),
  CONFIG_REPO_URL: z
    .string()
    .optional()
    .describe("Git remote (or local path) of the config repository. Unset: the shipped `config/` copied into a local repository under `DATA_DIR`. Example: `https://oauth2:…@gitlab.example.com/platform/config.git`."),
  CATALOG_SNAPSHOT: oneOf(["on", "off"])
    .default("on")
    .describe("Keep the parsed catalog in `DATA_DIR/catalog-snapshots/` so a start reads only the record files changed since; `off`: every start reads every file. Example: `off`."),
  SCM_PROVIDER: oneOf(["local", "gitlab"])
    .default("local")
    .describe("Source control: `local` (bare repositories under `DATA_DIR/repos`) or `gitlab` (needs `GITLAB_TOKEN`). Example: `gitlab`."),
  PORTAL_DEMO_DATA: oneOf(["auto", "on", "off"])
    .default("auto")
    .describe("Seed the portal's lived-in demo once at start: `auto` = local source control without `CONFIG_REPO_URL`. Example: `off`."),
  PORTAL_RATE_LIMIT_PER_MINUTE: integer(0, 10_000_000)
    .default(1_200)
    .describe("Requests per minute of each signed-in user on the API routes (sessions and personal API tokens together); `0` = unlimited. Counted in Redis when `REDIS_URL` is set. Example: `600`."),
  PORTAL_TOKEN_CACHE_TTL_MS: integer(0, 60_000, "milliseconds")
    .default(5_000)
    .describe("How long a verified personal API token is answered from memory; `0` = every request reads it. Example: `0`."),
  PORTAL_FAVORITES_CACHE_TTL_MS: integer(0, 3_600_000, "milliseconds")
    .optional()
    .describe("How long a user's favorites are answered from memory; `0` = off. Unset: 60000 on PGlite (one instance), 0 on PostgreSQL. Example: `30000`."),
  GITLAB_URL: url("https://gitlab.com").describe("GitLab base URL (sign-in and REST). Example: `https://gitlab.example.com`."),
  GITLAB_CLIENT_ID: z
    .string()
    .optional()
    .describe("OAuth application id for GitLab sign-in (scopes `read_user api`), with `GITLAB_CLIENT_SECRET`. Unset: no GitLab sign-in. Example: the application's id in GitLab."),
  GITLAB_CLIENT_SECRET: z
    .string()
    .optional()
    .describe("OAuth application secret for GitLab sign-in, with `GITLAB_CLIENT_ID`. Example: the application's secret in GitLab."),
  GITLAB_TOKEN: z
    .string()
    .optional()
    .describe("Token the portal's server uses for GitLab REST calls (`SCM_PROVIDER=gitlab`; scope `api`). Example: a project or group access token."),
  PORTAL_METRICS_PORT: port()
    .optional()
    .describe("A port of its own (all interfaces) serving the portal's `/metrics` without a token, for a scraper inside the cluster. Unset: none. Example: `9465`."),
});

export const portalSchema = baseSchema.extend(portalOwnSchema.shape);

export type PortalEnv = z.infer<typeof portalSchema>;

/** Rules between the portal's settings (rules.ts), checked once every variable parsed on its own. */
export const portalRules: readonly SettingsRule<PortalEnv>[] = [devSignInListenProblem, gitlabProviderHasToken, gitlabSignInComplete];

/** Parses the portal's settings; throws EnvError naming every bad variable and what it accepts. */
export function parsePortalEnv(source: Record<string, string | undefined>): PortalEnv {
  return parseSettings("the portal", portalSchema, portalRules, source);
}

let cached: PortalEnv | undefined;

/** The portal's settings from the process environment, parsed on first use and then kept. */
export function getPortalEnv(): PortalEnv {
  if (!cached) {
    cached = parsePortalEnv(process.env);
    rememberBaseEnv(cached);
  }
  return cached;
}
