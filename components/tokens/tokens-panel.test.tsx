// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { TokensPanel } from "./tokens-panel";

const token = { id: "8d3c7d1e-0000-4000-8000-000000000001", name: "release script", prefix: "pat_ab12", createdAt: "2026-11-20T10:00:00Z", lastUsedAt: null };

describe("personal API tokens", () => {
  it("creates a token from its name and shows it once", async () => {
    const api = fakeApi({
      "GET /api/tokens": { body: { tokens: [] } },
      "POST /api/tokens": { status: 201, body: { ...token, token: "pat_ab12secret" } },
    });
    const { user } = renderInPortal(<TokensPanel />);
    expect(await screen.findByText("No tokens yet.")).toBeTruthy();
    const create = screen.getByRole("button", { name: "Create token" }) as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    await user.type(screen.getByLabelText("Name"), "  release script ");
    expect(create.disabled).toBe(false);
    await user.click(create);
    expect((await screen.findByTestId("new-token")).textContent).toBe("pat_ab12secret");
    // The schema trims the name before it is sent.
    expect(api.callsTo("POST", "/api/tokens")[0].json).toEqual({ name: "release script" });
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("");
  });

  it("says the name's limit, the route's own, where it is typed and keeps all that was pasted, sending nothing", async () => {
    const api = fakeApi({ "GET /api/tokens": { body: { tokens: [] } } });
    const { user } = renderInPortal(<TokensPanel />);
    await screen.findByText("No tokens yet.");
    const name = screen.getByLabelText("Name") as HTMLInputElement;
    await user.click(name);
    await user.paste("n".repeat(150));
    expect(name.value).toHaveLength(150);
    await user.click(screen.getByRole("button", { name: "Create token" }));
    expect((await screen.findByRole("alert")).textContent).toBe("The token's name can be at most 100 characters; this one has 150.");
    expect(api.callsTo("POST", "/api/tokens")).toHaveLength(0);
  });

  it("shows the server's detail when creating fails, and the pending state while it runs", async () => {
    const held = heldAnswer({ status: 403, body: { message: "session-required", detail: "Creating a token needs a signed-in browser session." } });
    fakeApi({ "GET /api/tokens": { body: { tokens: [] } }, "POST /api/tokens": held.handler });
    const { user } = renderInPortal(<TokensPanel />);
    await user.type(screen.getByLabelText("Name"), "ci");
    await user.click(screen.getByRole("button", { name: "Create token" }));
    const pending = await screen.findByRole("button", { name: "Creating…" });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect((await screen.findByRole("alert")).textContent).toBe("Creating a token needs a signed-in browser session.");
  });

  it("revokes after asking, and says why when the server refuses", async () => {
    const api = fakeApi({
      "GET /api/tokens": { body: { tokens: [token] } },
      [`DELETE /api/tokens/${token.id}`]: { status: 404, body: { message: "token-not-found", detail: "no such token (or not yours to revoke)" } },
    });
    const { user } = renderInPortal(<TokensPanel />);
    await user.click(await screen.findByRole("button", { name: "Revoke" }));
    const dialog = screen.getByRole("dialog");
    expect(dialog.textContent).toContain("release script");
    await user.click(within(dialog).getByRole("button", { name: "Revoke" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("no such token (or not yours to revoke)");
    expect(api.callsTo("DELETE", `/api/tokens/${token.id}`)).toHaveLength(1);
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
