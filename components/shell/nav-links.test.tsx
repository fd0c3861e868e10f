// @vitest-environment jsdom
// The main navigation: on a phone a Menu button names the current section and opens the list of
// sections (CSS hides the button on wider screens; jsdom applies no media queries, so the structure
// and state are what is checked here, the layout in e2e/layouts.spec.ts).
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import { navItems } from "./nav-items";
import { NavLinks } from "./nav-links";

describe("the main navigation", () => {
  it("has a Menu button naming the current section, which opens and closes the list of sections", async () => {
    const { user } = renderInPortal(<NavLinks items={navItems} />, { url: "/live-ops/demo-game?env=test" });
    const nav = screen.getByRole("navigation", { name: "Main" });
    const menu = within(nav).getByRole("button", { name: "Menu: Live ops" });
    expect(menu.getAttribute("aria-expanded")).toBe("false");
    const list = document.getElementById(menu.getAttribute("aria-controls")!)!;
    expect(list.hasAttribute("data-open")).toBe(false);
    await user.click(menu);
    expect(menu.getAttribute("aria-expanded")).toBe("true");
    expect(list.hasAttribute("data-open")).toBe(true);
    // The current section is marked, and the offers pages keep the environment.
    expect(within(list).getByRole("link", { name: "Live ops" }).getAttribute("aria-current")).toBe("page");
    expect(within(list).getByRole("link", { name: "Offers" }).getAttribute("href")).toBe("/offers?env=test");
    // Escape closes it and gives focus back to the button.
    await user.keyboard("{Escape}");
    expect(menu.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(menu);
    // Choosing a section closes it too (the navigation itself is the router's, left out here).
    list.addEventListener("click", (event) => event.preventDefault());
    await user.click(menu);
    await user.click(within(list).getByRole("link", { name: "Catalog" }));
    expect(menu.getAttribute("aria-expanded")).toBe("false");
  });

  it("says Menu where no section is current (the home page)", () => {
    renderInPortal(<NavLinks items={navItems} />, { url: "/" });
    expect(screen.getByRole("button", { name: "Menu" }).getAttribute("aria-expanded")).toBe("false");
  });
});
