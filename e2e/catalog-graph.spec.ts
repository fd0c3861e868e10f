import { expect, expectAccessible, hydrated, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An engineer follows a dependency chain in the graph of the demo catalog: store-web consumes checkout-api's API,
// checkout-api depends on inventory. Each node re-centres the graph by its URL (by mouse, then by keyboard), so Back
// returns; the blast radius grows down the chain (inventory also serves offers-service's events, which three
// components use). Then the engineer opens an owner's page from the component page, and a group's.

const scrollOverflow = (page: import("@playwright/test").Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("engineer: follow a dependency chain in the graph, re-centring twice, then open an owner's page", async ({ page }) => {
  await signInAs(page, "erin", "/catalog/store-web");
  await page.getByTestId("relation-graph-link").click();
  await expect(page).toHaveURL(/\/catalog\/store-web\/graph$/);
  await hydrated(page);
  await expect(page.getByTestId("graph-blast-radius")).toContainText("No component depends on store-web");
  const canvas = page.getByTestId("graph-canvas");
  await expect(canvas.getByRole("link", { name: "store-web (shown)" })).toBeVisible();

  // Re-centre with the mouse: store-web → checkout-api.
  await canvas.getByRole("link", { name: "Re-centre the graph on checkout-api" }).click();
  await expect(page).toHaveURL(/\/catalog\/checkout-api\/graph$/);
  await expect(page.getByTestId("graph-blast-radius")).toContainText("1 component depends on checkout-api, directly or through others");
  // The text list holds the same relations: what it depends on (declared, and the API it consumes) and what uses it.
  const list = page.getByTestId("graph-text-list");
  await expect(list.locator('li[data-name="checkout-api"]')).toContainText("depends on: inventory, payments-gateway (API payments)");
  await expect(list.locator('li[data-name="checkout-api"]')).toContainText("used by: store-web (API checkout)");

  // Two hops, then re-centre with the keyboard: checkout-api → inventory, keeping the depth.
  await page.getByTestId("graph-depth-2").click();
  await expect(page).toHaveURL(/\/catalog\/checkout-api\/graph\?depth=2$/);
  await expect(page.getByTestId("graph-depth-2")).toHaveAttribute("aria-current", "page");
  await expectAccessible(page, "graph of checkout-api, 2 hops");
  const inventory = canvas.getByRole("link", { name: "Re-centre the graph on inventory" });
  await inventory.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/catalog\/inventory\/graph\?depth=2$/);
  await expect(page.getByTestId("graph-blast-radius")).toContainText("6 components depend on inventory");
  await expect(list.locator('li[data-name="offers-service"]')).toContainText("1 hop away");
  await expectAccessible(page, "graph of inventory, 2 hops");

  // Back returns to the previous centre.
  await page.goBack();
  await expect(page).toHaveURL(/\/catalog\/checkout-api\/graph\?depth=2$/);
  await expect(page.getByTestId("graph-blast-radius")).toContainText("1 component depends on checkout-api");

  // A phone: the graph zooms inside its frame, the page is no wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await openPage(page, "/catalog/inventory/graph?depth=3");
  await expect(canvas.getByRole("link", { name: "inventory (shown)" })).toBeVisible();
  expect(await scrollOverflow(page), "the graph page at 390 px is wider than the screen").toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1280, height: 900 });

  // From the component page to its owner's page, and on to a group's.
  await page.getByRole("link", { name: "← inventory" }).click();
  await expect(page).toHaveURL(/\/catalog\/inventory$/);
  await hydrated(page);
  await page.getByTestId("component-owner").getByRole("link", { name: "liam.walsh" }).click();
  await expect(page).toHaveURL(/\/owners\/liam\.walsh$/);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("liam.walsh");
  await expect(page.getByTestId("owner-components").locator('tr[data-name="inventory"]')).toContainText("named");
  // Each component's scorecard level, and how the owner's components spread over the levels.
  await expect(page.getByTestId("owner-components").locator('tr[data-name="inventory"]').getByTestId("owner-level")).toContainText(/\d+ of \d+ rules/);
  await expect(page.getByTestId("owner-scorecard-rollup")).toContainText(/Scorecard: .*% of rules passed\./);

  await openPage(page, "/catalog/checkout-api");
  await page.getByTestId("component-owner").getByRole("link", { name: "commerce/backend" }).click();
  await expect(page).toHaveURL(/\/owners\/commerce\/backend$/);
  await hydrated(page);
  await expect(page.getByTestId("owner-components").locator('tr[data-name="checkout-api"]')).toBeVisible();
  // The group's scorecard per day: a chart with its figures as a table (a note before the first daily snapshot).
  await expect(page.getByTestId("group-trend-card")).toContainText("Scorecard per day");
  await expect(page.getByTestId("group-trend").or(page.getByTestId("group-trend-empty"))).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await scrollOverflow(page), "a group's page at 390 px is wider than the screen").toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1280, height: 900 });

  // A name no record holds as an owner.
  await openPage(page, "/owners/nobody-at-all");
  await expect(page.getByTestId("not-found-page")).toContainText("No such owner");
});
