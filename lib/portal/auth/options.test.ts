import { afterAll, describe, expect, it, vi } from "vitest";
import type { OAuthConfig } from "next-auth/providers/oauth";

vi.stubEnv("NEXTAUTH_URL", "https://portal.example.com");
vi.stubEnv("NEXTAUTH_SECRET", "options-test-secret-0123456789");
vi.stubEnv("GITLAB_URL", "https://gitlab.example.com/");
vi.stubEnv("GITLAB_CLIENT_ID", "client-id");
vi.stubEnv("GITLAB_CLIENT_SECRET", "client-secret");
vi.stubEnv("PORTAL_DEV_LOGIN", "");

// Other test files may run in this worker after this one.
afterAll(() => vi.unstubAllEnvs());

// The settings are read once per module graph: a fresh graph reads the ones stubbed above.
vi.resetModules();
const { getAuthOptions } = await import("./options");

describe("next-auth options", () => {
  const options = getAuthOptions();

  it("offers GitLab on the self-hosted base URL with read_user api, and no development sign-in", () => {
    expect(options.providers.map((p) => p.id)).toEqual(["gitlab"]);
    const gitlab = options.providers[0] as OAuthConfig<unknown>;
    const authorization = gitlab.authorization as { url: string; params: Record<string, string> };
    expect(authorization.url).toBe("https://gitlab.example.com/oauth/authorize");
    expect(authorization.params.scope).toBe("read_user api");
    // The redirect URI registered at GitLab is the interface's /auth/gitlab/callback.
    expect(authorization.params.redirect_uri).toBe("https://portal.example.com/auth/gitlab/callback");
    expect((gitlab.token as { url: string }).url).toBe("https://gitlab.example.com/oauth/token");
    expect(gitlab.userinfo).toBe("https://gitlab.example.com/api/v4/user");
  });

  it("uses JWT sessions with secure cookies behind TLS", () => {
    expect(options.session?.strategy).toBe("jwt");
    expect(options.useSecureCookies).toBe(true);
    expect(options.secret).toBe("options-test-secret-0123456789");
  });

  it("puts the GitLab username and groups in the token, and the roles in the session", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(
      Response.json([{ full_path: "platform/leads" }, { full_path: "misc" }], { headers: { "x-next-page": "" } }),
    );
    try {
      const token = await options.callbacks!.jwt!({
        token: { name: "Lee Lead", email: "lee@example.com", sub: "42" },
        user: { id: "42", name: "Lee Lead" },
        account: { provider: "gitlab", type: "oauth", providerAccountId: "42", access_token: "at" },
        profile: { username: "lee.l" } as never,
      });
      expect(token).toMatchObject({ username: "lee.l", groups: ["platform/leads", "misc"], provider: "gitlab" });
      expect(fetchMock.mock.calls[0][0]).toBe("https://gitlab.example.com/api/v4/groups?min_access_level=10&per_page=100&page=1");
      const session = await options.callbacks!.session!({ session: { expires: "x" }, token } as never);
      expect(session).toMatchObject({ user: { id: "lee.l", name: "Lee Lead", roles: ["engineer", "lead"], groups: ["platform/leads", "misc"] } });
    } finally {
      fetchMock.mockRestore();
    }
  });

  it("a development session is empty while the development sign-in is off", async () => {
    const session = await options.callbacks!.session!({ session: { expires: "x" }, token: { username: "lee", provider: "dev" } } as never);
    expect(session).toEqual({ expires: "x" });
  });
});
