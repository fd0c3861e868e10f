// What the development sign-in accepts: any user name (GitLab-like) and optional group paths.

export const devUserNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const groupPathPattern = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;

/** The development sign-in's credentials, checked: a user name and optional groups (comma or newline separated). */
export function parseDevCredentials(input: { username?: string; groups?: string } | undefined): { username: string; groups: string[] } | null {
  const username = input?.username?.trim() ?? "";
  if (!devUserNamePattern.test(username)) return null;
  const groups = (input?.groups ?? "")
    .split(/[,\n]/)
    .map((g) => g.trim())
    .filter((g) => g && groupPathPattern.test(g));
  return { username, groups: [...new Set(groups)] };
}
