import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// The portal's main pages fit a 390 px phone and a 1440 px desktop: nothing makes the page wider than
// the screen (a wide table or diff scrolls inside its own box). Screenshots of each page at both widths
// go to the test's folder under test-results/ for a person to look at. Unknown components, merge requests, players and
// paths show the portal's styled not-found page with a way back.

const WIDTHS = [1440, 390] as const;

async function pageOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

test("catalog, component, reviews, orders and a player fit 390 px and 1440 px", async ({ page }) => {
  // Sixteen page loads with full-page screenshots: 3.2 min on a 2-core machine at load 25.
  test.setTimeout(360_000);
  // A merge request to look at: an engineer who owns nothing proposes a record change.
  await signInAs(page, `eng${Date.now().toString(36)}`, "/catalog");
  const proposed = await page.request.patch("/api/components/checkout-api", {
    headers: { "If-Match": "*", Origin: new URL(page.url()).origin },
    data: { metadata: { description: `A long description without spaces ${"x".repeat(300)} to check wrapping` } },
  });
  expect(proposed.status()).toBe(202);
  const review = (await proposed.json()).reviewUrl as string;

  await signInAs(page, "admin", "/catalog");
  const pages: Array<[string, string, string]> = [
    ["catalog", "/catalog", "catalog-list"],
    ["component", "/catalog/checkout-api", "component-title"],
    ["reviews", "/reviews", "reviews-to-decide"],
    ["review", review, "review-diff"],
    ["orders", "/app-orders", "h1"],
    ["orders-new", "/app-orders/new", "h1"],
    ["orders-queue", "/app-orders/queue", "h1"],
    ["player", "/offers/demo-game/demo-player-1", "player-title"],
  ];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const [name, path, ready] of pages) {
      await page.goto(path);
      await expect((ready === "h1" ? page.locator("h1") : page.getByTestId(ready)).first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
      expect(await pageOverflow(page), `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(1);
    }
  }
});

test("unknown component, merge request, player and path show the portal's not-found page with a way back", async ({ page }) => {
  await signInAs(page, "admin", "/catalog");
  const cases: Array<[string, string, string]> = [
    ["/catalog/no-such-component", "No such component", "Catalog"],
    ["/reviews/99999", "No such merge request", "Reviews"],
    ["/offers/demo-game/no-such-player", "No such player", "Offers"],
    ["/app-orders/no-such-order", "Page not found", "Home"],
    ["/no/such/page", "Page not found", "Home"],
  ];
  for (const [path, title, back] of cases) {
    await page.goto(path);
    const notFound = page.getByTestId("not-found-page");
    await expect(notFound.getByRole("heading", { name: title })).toBeVisible();
    await expect(notFound.getByRole("link", { name: back, exact: true })).toBeVisible();
    await expect(page.getByText("This page could not be found")).toHaveCount(0);
  }
});
