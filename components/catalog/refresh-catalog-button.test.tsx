// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { describeRefresh, RefreshCatalogButton } from "./refresh-catalog-button";

const changes = (c: Partial<{ changed: number; added: number; removed: number; errorsBefore: number; errorsAfter: number }>) => ({
  components: 5,
  errorCount: 0,
  changes: { changed: 0, added: 0, removed: 0, errorsBefore: 0, errorsAfter: 0, ...c },
});

describe("refresh catalog button", () => {
  it("shows progress, then says what changed and refreshes the page", async () => {
    const held = heldAnswer({ body: changes({ changed: 3, errorsBefore: 0, errorsAfter: 1 }) });
    const api = fakeApi({ "POST /api/cache/refresh": held.handler });
    const { user, router } = renderInPortal(<RefreshCatalogButton />);
    await user.click(screen.getByRole("button", { name: "Refresh catalog" }));
    const pending = await screen.findByRole("button", { name: "Refreshing…" });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("refresh-catalog").getAttribute("aria-busy")).toBe("true");
    held.release();
    expect(await screen.findByText("3 records changed, 1 new error")).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("3 records changed, 1 new error");
    expect(screen.getByTestId("refresh-catalog").getAttribute("aria-busy")).toBe("false");
    expect(router.refresh).toHaveBeenCalled();
    expect(api.callsTo("POST", "/api/cache/refresh")[0].url).toBe("/api/cache/refresh");
  });

  it("re-reads one component by name", async () => {
    const api = fakeApi({ "POST /api/cache/refresh": { body: { name: "checkout-api", changed: true, removed: false, stale: false, errors: [], components: 5, errorCount: 0 } } });
    const { user } = renderInPortal(<RefreshCatalogButton name="checkout-api" />);
    await user.click(screen.getByRole("button", { name: "Refresh this component" }));
    expect(await screen.findByText("Re-read checkout-api: changed")).toBeTruthy();
    expect(api.calls[0].url).toBe("/api/cache/refresh?name=checkout-api");
  });

  it("shows the server's detail when the refresh fails, and does not refresh the page", async () => {
    fakeApi({ "POST /api/cache/refresh": { status: 403, body: { message: "forbidden", detail: "This needs the operator role.", requiredRole: "operator" } } });
    const { user, router } = renderInPortal(<RefreshCatalogButton />);
    await user.click(screen.getByRole("button", { name: "Refresh catalog" }));
    expect((await screen.findByRole("alert")).textContent).toBe("This needs the operator role.");
    expect(router.refresh).not.toHaveBeenCalled();
    expect((screen.getByRole("button", { name: "Refresh catalog" }) as HTMLButtonElement).disabled).toBe(false);
  });

  it("says the outcome in a sentence", () => {
    expect(describeRefresh(changes({}))).toBe("Nothing changed");
    expect(describeRefresh(changes({ changed: 1, added: 2, removed: 1, errorsBefore: 2, errorsAfter: 0 }))).toBe("1 record changed, 2 records added, 1 record removed, 2 errors fixed");
  });
});
