import type { Page } from "@playwright/test";
import { expect, expectAccessible, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An operator (olga, config/portal.yaml) changes a scorecard rule by review: on /scorecards she edits the
// rules file (at least one owner instead of two), proposes it, merges the merge request under Reviews, and
// sees offers-service (one owner, the other record rules passing) move from no level to a level on its page
// and in the catalog's level filter. The rule is put back the same way, for the journeys after this one.

async function proposeAndMerge(page: Page, from: string, to: string): Promise<void> {
  await openPage(page, "/scorecards");
  const text = page.getByTestId("rules-text");
  const current = await text.inputValue();
  expect(current).toContain(from);
  await text.fill(current.replace(from, to));
  await page.getByTestId("propose-rules").click();
  const outcome = page.getByTestId("rules-outcome");
  await expect(outcome).toContainText("Merge request !");
  await outcome.getByRole("link", { name: "Review and merge it" }).click();
  await expect(page).toHaveURL(/\/reviews\/\d+$/);
  await expect(page.getByTestId("review-diff")).toContainText("scorecards/rules.yaml");
  await page.getByRole("button", { name: "Merge" }).click();
  await expect(page.getByTestId("review-outcome")).toContainText("Merged !");
}

test("operator: a scorecard rule changed by review moves the levels", async ({ page }) => {
  test.setTimeout(180_000);
  await signInAs(page, "olga", "/catalog/offers-service");
  const card = page.getByTestId("component-scorecard");
  await expect(card.getByTestId("scorecard-level")).toContainText("none");
  await expect(card.getByTestId("scorecard-rule-two-owners")).toContainText("Failed");
  await expect(card.getByTestId("scorecard-rule-two-owners")).toContainText("1 owner listed; at least 2 wanted");

  await openPage(page, "/scorecards");
  await expectAccessible(page, "the scorecards page");
  await proposeAndMerge(page, "count: 2", "count: 1");
  try {
    await openPage(page, "/catalog/offers-service");
    await expect(card.getByTestId("scorecard-rule-two-owners")).toContainText("Passed");
    // Gold, or silver where it has no release in the last 90 days (the demo releases other components).
    await expect(card.getByTestId("scorecard-level")).toHaveText(/^(gold|silver)$/);
    const level = (await card.getByTestId("scorecard-level").textContent()) ?? "";

    // The catalog filters by level, and keeps the filter in its address.
    await openPage(page, "/catalog");
    await page.getByTestId(`chip-level-${level}`).click();
    await expect(page).toHaveURL(new RegExp(`level=${level}`));
    await expect(page.getByTestId("row-offers-service")).toBeVisible();
    await expect(page.getByTestId("level-offers-service")).toHaveText(level);
    await expect(page.getByTestId("row-analytics-ingest")).toHaveCount(0);
  } finally {
    await proposeAndMerge(page, "count: 1", "count: 2");
  }
  await openPage(page, "/catalog/offers-service");
  await expect(card.getByTestId("scorecard-level")).toContainText("none");
});
