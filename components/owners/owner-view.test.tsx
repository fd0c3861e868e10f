// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { render, within } from "@testing-library/react";
import type { OwnerAnswer } from "@/lib/portal/contracts/owners";
import { OwnerView } from "./owner-view";
import { ownerHref } from "./owner-href";

const answer = (over: Partial<OwnerAnswer> = {}): OwnerAnswer => ({
  owner: "alice",
  asUser: true,
  asGroup: false,
  groups: ["platform/sre"],
  components: {
    items: [
      { name: "alpha", displayName: "Alpha", kind: "service", lifecycle: "production", direct: true, viaGroups: [] },
      { name: "beta", displayName: "Beta", kind: "library", lifecycle: null, direct: false, viaGroups: ["platform/sre"] },
    ],
    total: 2,
  },
  reviews: [],
  orders: { mayDecide: false, toDecide: [], requested: [] },
  ...over,
});

describe("an owner's page", () => {
  it("lists the components with how each is owned, each linking to its page and the group's", () => {
    const { container } = render(<OwnerView answer={answer()} self />);
    const page = within(container);
    expect(page.queryByRole("columnheader", { name: "Level" })).toBeNull();
    const rows = within(page.getByTestId("owner-components")).getAllByRole("row").slice(1);
    expect(rows.map((r) => within(r).getAllByRole("cell").map((c) => c.textContent))).toEqual([
      ["Alphaalpha · production", "service", "named"],
      ["Betabeta", "library", "through platform/sre"],
    ]);
    expect(within(rows[1]).getAllByRole("link").map((a) => a.getAttribute("href"))).toEqual(["/catalog/beta", "/owners/platform/sre"]);
    expect(page.getByTestId("owner-groups").textContent).toContain("platform/sre");
    expect(page.getByText("No merge request is open on these components.")).toBeTruthy();
    expect(page.getByText("alice does not decide app orders (leads do).")).toBeTruthy();
  });

  it("shows a Level column when levels are given (the scorecards' slot)", () => {
    const { container } = render(<OwnerView answer={answer()} self levels={new Map([["alpha", "gold"]])} />);
    const rows = within(within(container).getByTestId("owner-components")).getAllByRole("row");
    expect(within(rows[0]).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Component", "Kind", "Owned", "Level"]);
    expect(within(rows[2]).getAllByRole("cell")[3].textContent).toBe("none");
  });

  it("encodes each segment of an owner's address, keeping a group's slashes", () => {
    expect(ownerHref("commerce/backend")).toBe("/owners/commerce/backend");
    expect(ownerHref("a b")).toBe("/owners/a%20b");
  });
});
