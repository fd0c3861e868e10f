// GitLab specifics of the sign-in: the profile shape and the user's groups (full paths).

export interface GitlabProfile extends Record<string, unknown> {
  id: number;
  username: string;
  name?: string;
  email?: string | null;
  avatar_url?: string | null;
}

/**
 * The full paths of the groups the user belongs to (directly or inherited), at least Guest.
 * A failure is logged and answers what was read so far: the user signs in with the default roles.
 */
export async function fetchGitlabGroups(baseUrl: string, accessToken: string, fetchImpl: typeof fetch = fetch): Promise<string[]> {
  const groups: string[] = [];
  try {
    for (let page = 1; page <= 20; page++) {
      const url = `${baseUrl}/api/v4/groups?min_access_level=10&per_page=100&page=${page}`;
      const response = await fetchImpl(url, {
        headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
      const items = (await response.json()) as { full_path?: unknown }[];
      for (const item of items) if (typeof item.full_path === "string") groups.push(item.full_path);
      const next = response.headers.get("x-next-page");
      if (!next || items.length === 0) break;
    }
  } catch (error) {
    console.error(`[portal] reading the GitLab groups of a user failed: ${(error as Error).message}`);
  }
  return groups;
}
