// Which environment of the games (live or test) the offers pages are about. The page's URL says it
// (`?env=test`; absent means live), so a link, a reload or a shared address keeps it; every call of
// the portal's offers API says it too (`environment=live|test`). A plain module: server pages and
// client components both read it.
import { Environment, ENVIRONMENTS } from "@/lib/offers-client/schemas";

export { Environment, ENVIRONMENTS };

/** The search parameter of a page that names its environment. */
export const ENV_PARAM = "env";

/** The environment a page's `env` parameter names: test only when it says test; anything else is live, the default. */
export function environmentFromParam(value: string | readonly string[] | null | undefined): Environment {
  const first = typeof value === "string" ? value : value?.[0];
  return first === "test" ? "test" : "live";
}

/** A page address in `environment`: test carries env=test, live carries no env (absent is live). */
export function pageHref(href: string, environment: Environment): string {
  const hashAt = href.indexOf("#");
  const hash = hashAt >= 0 ? href.slice(hashAt) : "";
  const rest = hashAt >= 0 ? href.slice(0, hashAt) : href;
  const queryAt = rest.indexOf("?");
  const path = queryAt >= 0 ? rest.slice(0, queryAt) : rest;
  const params = new URLSearchParams(queryAt >= 0 ? rest.slice(queryAt + 1) : "");
  if (environment === "test") params.set(ENV_PARAM, "test");
  else params.delete(ENV_PARAM);
  return `${path}${params.size ? `?${params}` : ""}${hash}`;
}

/** A portal API address about `environment` (app/api/offers/**): every call names it, live included, so none relies on a default. */
export function apiUrl(path: string, environment: Environment, params?: Record<string, string> | URLSearchParams): string {
  const search = new URLSearchParams(params);
  search.set("environment", environment);
  return `${path}?${search}`;
}

/** A page title that says test, so a browser tab of the test environment is not taken for live. */
export function titleIn(title: string, environment: Environment): string {
  return environment === "test" ? `Test · ${title}` : title;
}

/** A server page's search parameters, as Next passes them (awaited). */
export type PageSearchParams = Record<string, string | string[] | undefined>;

/** The environment a server page is about, from its search parameters. */
export const pageEnvironment = (searchParams: PageSearchParams): Environment => environmentFromParam(searchParams[ENV_PARAM]);
