// @vitest-environment jsdom
// What the app's route boundaries show instead of Next's bare defaults: "not found" and "loading" in
// the portal's look, and the rewards page's own error and "not found" in the rewards look.
import { describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import RootNotFound from "@/app/not-found";
import PortalNotFound from "@/app/(portal)/not-found";
import ComponentNotFound from "@/app/(portal)/catalog/[name]/not-found";
import PlayerNotFound from "@/app/(portal)/offers/[gameId]/[playerId]/not-found";
import CatalogLoading from "@/app/(portal)/catalog/(browse)/loading";
import RewardsError from "@/app/rewards/error";
import RewardsNotFound from "@/app/rewards/not-found";
import UnknownRewardsPage from "@/app/rewards/[...unknown]/page";

describe("route boundaries", () => {
  it("say what was not found, in a card of the portal, with the way back", () => {
    for (const [Page, title, back] of [
      [RootNotFound, "Page not found", "/"],
      [PortalNotFound, "Page not found", "/"],
      [ComponentNotFound, "No such component", "/catalog"],
      [PlayerNotFound, "Not a valid player id", "/offers"],
    ] as const) {
      const { unmount, container } = renderInPortal(<Page />);
      expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(title);
      expect(container.querySelector(".ui-card")).not.toBeNull();
      expect(screen.getAllByRole("link")[0].getAttribute("href")).toBe(back);
      unmount();
    }
  });

  it("show the page's shape while it loads, and say so", () => {
    renderInPortal(<CatalogLoading />);
    expect(screen.getByRole("status").textContent).toBe("Loading the catalog…");
    expect(screen.getByTestId("page-loading").getAttribute("aria-busy")).toBe("true");
  });

  it("the rewards page fails in its own look, and tries again when asked", async () => {
    const retry = vi.fn();
    const { user } = renderInPortal(<RewardsError error={Object.assign(new Error("boom"), { digest: "42" })} retry={retry} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Rewards are unavailable right now");
    expect(screen.getByText("Reference: 42")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(retry).toHaveBeenCalledOnce();
  });

  it("an unknown address under /rewards is the rewards look's 'nothing here'", () => {
    expect(() => UnknownRewardsPage()).toThrow(expect.objectContaining({ digest: expect.stringContaining("404") }));
    renderInPortal(<RewardsNotFound />);
    expect(screen.getByTestId("rewards-not-found").textContent).toContain("This page does not exist.");
    expect(screen.getByRole("link").getAttribute("href")).toBe("/rewards");
  });
});
