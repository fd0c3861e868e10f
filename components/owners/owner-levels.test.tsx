// @vitest-environment jsdom
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { OwnerLevels, OwnerRollup } from "./owner-levels";

describe("an owner's scorecard", () => {
  it("names the levels highest first, those with no level last, and the share of rules passed", () => {
    render(<OwnerRollup levels={["bronze", "silver", "gold"]} rollup={{ components: 6, levels: { none: 3, bronze: 0, silver: 1, gold: 2 }, score: 0.744 }} />);
    expect(screen.getByTestId("owner-scorecard-rollup").textContent).toBe("Scorecard: 2 gold, 1 silver, 3 with no level; 74 % of rules passed.");
  });

  it("shows nothing for an owner with no component, and a component with no level as none", () => {
    const { container } = render(<OwnerRollup levels={["bronze"]} rollup={{ components: 0, levels: { none: 0, bronze: 0 }, score: null }} />);
    expect(container.textContent).toBe("");
    render(<OwnerLevels level={{ level: null, passed: 1, total: 4 }} />);
    expect(screen.getByTestId("owner-level").textContent).toBe("none 1 of 4 rules");
  });
});
