/**
 * Rules between settings, as pure functions: each takes the parsed settings and answers null, or why the service
 * must not start, in words that name the variables. They run once every variable parsed on its own (parse.ts).
 * Each names the few settings it reads as its own parameter type, so the schemas depend on the rules and not back.
 */
export { devSignInListenProblem } from "./listen-address";

/** GitLab source control cannot work without a token: refused at start rather than on the first request. */
export function gitlabProviderHasToken(env: { SCM_PROVIDER: string; GITLAB_TOKEN?: string | undefined }): string | null {
  return env.SCM_PROVIDER === "gitlab" && !env.GITLAB_TOKEN ? "SCM_PROVIDER=gitlab needs GITLAB_TOKEN (a token with api scope)." : null;
}

/** GitLab sign-in needs both halves of its OAuth application; one alone would leave it silently off. */
export function gitlabSignInComplete(env: { GITLAB_CLIENT_ID?: string | undefined; GITLAB_CLIENT_SECRET?: string | undefined }): string | null {
  if (Boolean(env.GITLAB_CLIENT_ID) === Boolean(env.GITLAB_CLIENT_SECRET)) return null;
  const [set, missing] = env.GITLAB_CLIENT_ID ? ["GITLAB_CLIENT_ID", "GITLAB_CLIENT_SECRET"] : ["GITLAB_CLIENT_SECRET", "GITLAB_CLIENT_ID"];
  return `${set} is set without ${missing}: GitLab sign-in needs both (or neither, for no GitLab sign-in).`;
}
