// @vitest-environment jsdom
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { GroupTrend, trendLevels, type GroupTrendPoint } from "./group-trend";

describe("a group's scorecard trend", () => {
  const points: GroupTrendPoint[] = [
    { day: "2026-12-05", levels: { none: 2, bronze: 1, silver: 0, gold: 0 }, score: 0.4 },
    { day: "2026-12-06", levels: { none: 1, bronze: 1, silver: 1, gold: 0, platinum: 1 }, score: 0.625 },
  ];

  it("gives the figures as text beside the chart: components per level per day, and the share of rules passed", () => {
    render(<GroupTrend group="growth/loyalty-team" points={points} levels={["bronze", "silver", "gold"]} />);
    expect(screen.getByTestId("group-trend-chart").getAttribute("aria-hidden")).toBe("true");
    const table = screen.getByTestId("group-trend");
    expect(within(table).getAllByRole("columnheader").map((h) => h.textContent)).toEqual(["Day (UTC)", "No level", "bronze", "silver", "gold", "platinum", "Rules passed"]);
    const rows = within(table).getAllByRole("row").slice(1).map((r) => within(r).getAllByRole("cell").map((c) => c.textContent));
    expect(rows).toEqual([
      ["2026-12-05", "2", "1", "0", "0", "0", "40 %"],
      ["2026-12-06", "1", "1", "1", "0", "1", "63 %"],
    ]);
  });

  it("says when there is no snapshot yet, or when the database could not be read", () => {
    const empty = render(<GroupTrend group="growth" points={[]} levels={["bronze"]} />);
    expect(within(empty.container).getByTestId("group-trend-empty").textContent).toBe("No daily snapshot of growth yet: the first is taken today.");
    const failed = render(<GroupTrend group="growth" points={null} levels={["bronze"]} />);
    expect(within(failed.container).getByTestId("group-trend-card").textContent).toContain("could not be read");
  });

  it("keeps a level only older days knew as a column of its own", () => {
    expect(trendLevels(points, ["bronze", "silver", "gold"])).toEqual(["none", "bronze", "silver", "gold", "platinum"]);
  });
});
