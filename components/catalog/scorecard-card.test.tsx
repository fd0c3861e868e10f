// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import { validComponent } from "@/test-support/catalog/temp-catalog";
import { DEFAULT_SCORECARD_RULES, evaluateComponent } from "@/lib/catalog/scorecards";
import { ScorecardCard } from "./scorecard-card";

const scorecard = evaluateComponent(DEFAULT_SCORECARD_RULES, validComponent("checkout-api", { lifecycle: "production" }));

describe("a component's scorecard", () => {
  it("says the level, and each rule's outcome and why in a table", () => {
    renderInPortal(<ScorecardCard scorecard={scorecard} levels={DEFAULT_SCORECARD_RULES.levels} trend={[]} />);
    expect(screen.getByTestId("scorecard-level").textContent).toBe("none (a rule of the lowest level fails)");
    expect(screen.getByTestId("scorecard-score").textContent).toBe("3 of 5 rules passed");
    const table = screen.getByRole("table", { name: "Scorecard rules" });
    const rows = within(table).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell").map((c) => c.textContent));
    expect(rows[0]).toEqual(["Has a description", "bronze", "Failed", "metadata.description is not set"]);
    expect(rows[1]).toEqual(["At least two owners", "bronze", "Passed", "2 owners listed; at least 2 wanted"]);
    expect(screen.getByTestId("scorecard-trend-empty").textContent).toContain("No daily snapshot yet");
  });

  it("gives the trend's figures as text beside the chart", () => {
    const trend = [
      { day: "2026-12-05", level: null, rank: 0, passed: 3, total: 5 },
      { day: "2026-12-06", level: "silver", rank: 2, passed: 4, total: 5 },
    ];
    renderInPortal(<ScorecardCard scorecard={scorecard} levels={DEFAULT_SCORECARD_RULES.levels} trend={trend} />);
    const table = screen.getByRole("table", { name: "Scorecard level per day" });
    expect(within(table).getAllByRole("row").slice(1).map((r) => r.textContent)).toEqual(["2026-12-05none3 of 5", "2026-12-06silver4 of 5"]);
    expect(screen.getByTestId("scorecard-trend-chart").getAttribute("aria-hidden")).toBe("true");
  });
});
