import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// Back from a component returns to the catalog as it was left (search and filters shown and applied),
// and Back again leaves the catalog: the sign-in page is not in the history.
test("Back keeps the catalog's search and filters, and never returns to the sign-in page", async ({ page }) => {
  await page.goto("about:blank");
  await signInAs(page, `eng${Date.now().toString(36)}`, "/catalog");
  await expect(page.getByTestId("catalog-list")).toBeVisible();

  await page.getByTestId("catalog-search").fill("offers");
  await expect(page).toHaveURL(/q=offers/);
  await page.getByTestId("chip-kind-service").click();
  await expect(page).toHaveURL(/kind=service/);
  await expect(page.getByTestId("row-offers-service")).toBeVisible();
  await expect(page.getByTestId("row-offers-sdk-js")).toHaveCount(0);

  await page.getByTestId("link-offers-service").click();
  await expect(page).toHaveURL(/\/catalog\/offers-service$/);
  await page.goBack();

  await expect(page).toHaveURL(/\/catalog\?.*q=offers/);
  await expect(page).toHaveURL(/kind=service/);
  await expect(page.getByTestId("catalog-search")).toHaveValue("offers");
  await expect(page.getByTestId("chip-kind-service")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("row-offers-service")).toBeVisible();
  await expect(page.getByTestId("row-offers-sdk-js")).toHaveCount(0);
  await expect(page.getByTestId("catalog-counts")).toContainText("1 of");

  // Typing and toggling added no entries: one Back leaves the catalog, and not to the sign-in page.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/catalog/);
  await expect(page).not.toHaveURL(/\/auth\//);
});
