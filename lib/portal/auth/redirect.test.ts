import { describe, expect, it } from "vitest";
import { safeCallbackPath, signInLanding, signInPath } from "./redirect";
import { parseDevCredentials } from "./dev-credentials";

describe("sign-in redirects", () => {
  it("keeps paths of this site", () => {
    expect(safeCallbackPath("/catalog?q=a#x")).toBe("/catalog?q=a#x");
    expect(safeCallbackPath("http://127.0.0.1:3100/tokens")).toBe("/tokens");
  });
  it("refuses other sites and odd values", () => {
    for (const value of ["//evil.example/x", "/\\evil.example", "/\t/evil.example", "/\n/evil.example", "javascript:alert(1)", "evil", "", undefined, 3, "/auth/signin"]) {
      expect(safeCallbackPath(value)).toBe("/");
    }
  });
  it("lands a sign-in on this site whatever the callbackUrl (next-auth's redirect callback)", () => {
    const base = "https://portal.example.com";
    expect(signInLanding("/catalog?q=a", base)).toBe(`${base}/catalog?q=a`);
    expect(signInLanding(`${base}/reviews#x`, base)).toBe(`${base}/reviews#x`);
    for (const url of ["\\\\other-host/x", "\\/other-host/x", "https://other-host/x", "http://portal.example.com/x", "https://[::1", "%", ""]) {
      expect(signInLanding(url, base), url).toBe(`${base}/`);
    }
  });
  it("builds the sign-in path", () => {
    expect(signInPath("/catalog?q=a")).toBe("/auth/signin?callbackUrl=%2Fcatalog%3Fq%3Da");
    expect(signInPath()).toBe("/auth/signin");
  });
});

describe("development sign-in credentials", () => {
  it("accepts a user name and groups", () => {
    expect(parseDevCredentials({ username: " lee ", groups: "platform/leads, customer-support,platform/leads" })).toEqual({
      username: "lee",
      groups: ["platform/leads", "customer-support"],
    });
    expect(parseDevCredentials({ username: "ann.o-k_1" })).toEqual({ username: "ann.o-k_1", groups: [] });
  });
  it("refuses empty or odd user names", () => {
    for (const username of ["", " ", "a b", "<script>", "-x", "x".repeat(65)]) expect(parseDevCredentials({ username })).toBeNull();
    expect(parseDevCredentials(undefined)).toBeNull();
  });
});
