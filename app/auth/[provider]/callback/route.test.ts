import { describe, expect, it } from "vitest";
import { GET, POST } from "./route";

const context = (provider: string) => ({ params: Promise.resolve({ provider }) });

describe("/auth/<provider>/callback", () => {
  it("forwards to next-auth's callback with the query (307 keeps the method)", async () => {
    const response = await GET(new Request("http://127.0.0.1:3100/auth/gitlab/callback?code=abc&state=xyz"), context("gitlab"));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("/api/auth/callback/gitlab?code=abc&state=xyz");
    const post = await POST(new Request("http://127.0.0.1:3100/auth/dev/callback", { method: "POST" }), context("dev"));
    expect(post.headers.get("location")).toBe("/api/auth/callback/dev");
  });

  it("answers 404 for a provider name that is not one", async () => {
    const response = await GET(new Request("http://127.0.0.1:3100/auth/x/callback"), context("../evil"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "not-found", detail: "no sign-in provider has that name" });
  });
});
