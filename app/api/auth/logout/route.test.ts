import { afterAll, describe, expect, it, vi } from "vitest";

vi.stubEnv("NEXTAUTH_URL", "https://portal.example.com");
vi.stubEnv("NEXTAUTH_SECRET", "logout-test-secret-0123456789");

// Other test files may run in this worker after this one.
afterAll(() => vi.unstubAllEnvs());

// The settings are read once per module graph: a fresh graph reads the ones stubbed above.
vi.resetModules();
const { POST } = await import("./route");

describe("POST /api/auth/logout", () => {
  it("clears the session cookie and its chunks (Secure behind TLS) and answers JSON", async () => {
    const response = await POST(
      new Request("https://portal.example.com/api/auth/logout", {
        method: "POST",
        headers: { origin: "https://portal.example.com", cookie: "__Secure-next-auth.session-token.0=a; __Secure-next-auth.session-token.1=b; other=x" },
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, signedIn: false });
    const cleared = response.headers.getSetCookie();
    expect(cleared.map((c) => c.split("=")[0]).sort()).toEqual([
      "__Secure-next-auth.session-token",
      "__Secure-next-auth.session-token.0",
      "__Secure-next-auth.session-token.1",
    ]);
    for (const cookie of cleared) expect(cookie).toMatch(/Max-Age=0; .*HttpOnly; SameSite=Lax; Secure$/);
  });

  it("refuses a cross-site sign-out", async () => {
    const response = await POST(
      new Request("https://portal.example.com/api/auth/logout", { method: "POST", headers: { "sec-fetch-site": "cross-site", origin: "https://evil.example" } }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: "cross-site-request", detail: expect.stringContaining("another site") });
  });
});
