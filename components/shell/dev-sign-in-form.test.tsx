// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { DevSignInForm } from "./dev-sign-in-form";

// next-auth's client asks for the providers and a CSRF token, then posts the credentials.
const nextAuth = (callback: Parameters<typeof fakeApi>[0][string]) =>
  fakeApi({
    "GET /api/auth/providers": { body: { dev: { id: "dev", name: "Development sign-in", type: "credentials", signinUrl: "/api/auth/signin/dev", callbackUrl: "/api/auth/callback/dev" } } },
    "GET /api/auth/csrf": { body: { csrfToken: "csrf-1" } },
    "POST /api/auth/callback/dev": callback,
  });

const props = { callbackUrl: "/tokens", users: [{ name: "lee", roles: ["lead"] }], groups: [{ path: "platform/operations", roles: ["operator"] }, { path: "support", roles: ["support"] }] };

describe("the development sign-in", () => {
  it("signs in with the name and the groups picked", async () => {
    const held = heldAnswer({ body: { url: "http://localhost:3000/tokens" } });
    const api = nextAuth(held.handler);
    const { user } = renderInPortal(<DevSignInForm {...props} />);
    const button = screen.getByRole("button", { name: "Sign in" }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    await user.click(screen.getByRole("button", { name: /^lee/ }));
    expect((screen.getByLabelText("User name") as HTMLInputElement).value).toBe("lee");
    await user.click(screen.getByLabelText(/platform\/operations/));
    await user.click(screen.getByLabelText(/^support/));
    await user.click(screen.getByLabelText(/platform\/operations/));
    await user.click(button);
    expect((await screen.findByRole("button", { name: "Signing in…" }) as HTMLButtonElement).disabled).toBe(true);
    held.release();
    await new Promise((r) => setTimeout(r, 0));
    expect(api.callsTo("POST", "/api/auth/callback/dev")[0].form).toMatchObject({ username: "lee", groups: "support", callbackUrl: "/tokens", csrfToken: "csrf-1" });
  });

  it("refuses a name the provider would refuse, before asking it", async () => {
    const api = nextAuth({ body: { url: "http://localhost:3000/tokens" } });
    const { user } = renderInPortal(<DevSignInForm {...props} />);
    await user.type(screen.getByLabelText("User name"), "not a name!");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Use letters, digits, dot, dash or underscore (up to 64).");
    expect(api.calls).toHaveLength(0);
  });

  it("refuses a pasted name over 64 characters whole, with the limit in words, instead of cutting it", async () => {
    const api = nextAuth({ body: { url: "http://localhost:3000/tokens" } });
    const { user } = renderInPortal(<DevSignInForm {...props} />);
    const input = screen.getByLabelText("User name") as HTMLInputElement;
    await user.click(input);
    await user.paste("a".repeat(10_000));
    expect(input.value).toHaveLength(10_000);
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Use letters, digits, dot, dash or underscore (up to 64).");
    expect(api.calls).toHaveLength(0);
  });

  it("says so when the server refuses, and lets the user try again", async () => {
    nextAuth({ status: 401, body: { url: "http://localhost:3000/api/auth/error?error=Configuration" } });
    const { user } = renderInPortal(<DevSignInForm {...props} />);
    await user.type(screen.getByLabelText("User name"), "ann");
    await user.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Sign-in failed: Configuration");
    expect((screen.getByRole("button", { name: "Sign in" }) as HTMLButtonElement).disabled).toBe(false);
  });
});
