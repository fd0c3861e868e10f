import { afterAll, describe, expect, it, vi } from "vitest";

const base = "http://127.0.0.1:3100";
vi.stubEnv("NEXTAUTH_URL", base);
vi.stubEnv("NEXTAUTH_SECRET", "nextauth-route-test-secret-0123456789");
vi.stubEnv("PORTAL_DEV_LOGIN", "1");

// Other test files may run in this worker after this one.
afterAll(() => vi.unstubAllEnvs());

// The settings are read once per module graph: a fresh graph reads the ones stubbed above.
vi.resetModules();
const { GET } = await import("./route");
const { GET: portalCallback } = await import("@/app/auth/[provider]/callback/route");
const { devSignInThroughNextAuth } = await import("@/test-support/portal/next-auth-core");

describe("next-auth's endpoints", () => {
  it("sends a GET of the development sign-in's callback (a form POST) to the sign-in page, directly and through /auth/dev/callback", async () => {
    const forwarded = await portalCallback(new Request(`${base}/auth/dev/callback`), { params: Promise.resolve({ provider: "dev" }) });
    expect(forwarded.headers.get("location")).toBe("/api/auth/callback/dev");
    const response = await GET(new Request(`${base}/api/auth/callback/dev?username=admin`), { params: Promise.resolve({ nextauth: ["callback", "dev"] }) });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/auth/signin");
  });

  it("signs in and lands on the page asked for", async () => {
    expect(await devSignInThroughNextAuth(base, "lee", "/catalog?q=a")).toMatchObject({ redirect: `${base}/catalog?q=a`, signedIn: true });
    expect(await devSignInThroughNextAuth(base, "lee", `${base}/reviews`)).toMatchObject({ redirect: `${base}/reviews`, signedIn: true });
  });

  it("signs in and lands on the home page when the callbackUrl is another site or no URL at all", async () => {
    for (const callbackUrl of ["\\\\other-host/x", "\\/other-host/x", "/\\other-host/x", "//other-host/x", "/\t/other-host/x", "https://other-host/x", "http:other-host", "javascript:alert(1)", "%", "http://[::1"]) {
      expect(await devSignInThroughNextAuth(base, "lee", callbackUrl), JSON.stringify(callbackUrl)).toMatchObject({ redirect: `${base}/`, signedIn: true });
    }
  });
});
