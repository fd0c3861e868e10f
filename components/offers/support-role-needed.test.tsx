// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SupportRoleNeeded } from "./support-role-needed";

describe("the offers pages without the support role", () => {
  it("point a lead to the approvals queue, and nobody else", () => {
    const { unmount } = render(<SupportRoleNeeded lead />);
    expect(screen.getByRole("link", { name: "Approvals" }).getAttribute("href")).toBe("/offers/approvals");
    unmount();
    render(<SupportRoleNeeded />);
    expect(screen.getByTestId("support-role-needed").textContent).toContain("You need the support role");
    expect(screen.queryByRole("link", { name: "Approvals" })).toBeNull();
  });
});
