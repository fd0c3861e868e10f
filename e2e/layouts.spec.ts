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

/** How far an element's content runs past its own box sideways (a dialog, a table's scroll region). */
async function boxOverflow(page: Page, selector: string): Promise<number> {
  return page.locator(selector).first().evaluate((element) => element.scrollWidth - element.clientWidth);
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

test("audit log, webhooks, live ops, support player and a long config key error fit 390 px and 1440 px", async ({ page }) => {
  // Sixteen page loads with full-page screenshots.
  test.setTimeout(360_000);
  // An endpoint URL of 1,500 characters without a break: the webhooks page, its dialogs and the audit log show it.
  const url = `https://game-server.example.com/hooks/${"a1b2c3d4e5".repeat(150)}`;
  await signInAs(page, "admin", "/catalog");
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const shot = (name: string) => page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
    const fits = async (name: string) => {
      await shot(name);
      expect.soft(await pageOverflow(page), `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(1);
    };

    // Webhooks: the secret shown once (on adding the endpoint, then on rotating its secret) wraps the URL inside the dialog.
    await page.goto("/live-ops/demo-game/webhooks");
    await expect(page.getByRole("heading", { name: "Reward webhooks" })).toBeVisible();
    const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: url.slice(0, 60) });
    if (width === WIDTHS[0]) {
      await page.getByLabel("Endpoint URL").fill(url);
      await page.getByRole("button", { name: "Add endpoint" }).click();
    } else {
      await endpoint.getByRole("button", { name: "Rotate secret" }).click();
    }
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByTestId("signing-secret")).toHaveText(/^whsec_/);
    await fits("webhooks-secret");
    expect.soft(await boxOverflow(page, "dialog[open]"), `the secret dialog at ${width} px is wider than itself`).toBeLessThanOrEqual(1);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(endpoint.getByTestId("endpoint-status")).toHaveText("Enabled");
    await fits("webhooks");
    // The endpoints table fits without scrolling sideways (on a phone its cells stack).
    expect.soft(await boxOverflow(page, ".ui-table-scroll:has([data-testid=webhook-endpoints])"), `the endpoints table at ${width} px scrolls sideways`).toBeLessThanOrEqual(1);

    // The audit log, whose newest entries name the endpoint's URL.
    await page.goto("/audit");
    await expect(page.locator("h1")).toBeVisible();
    await expect(page.getByText(url.slice(0, 60)).first()).toBeVisible();
    await fits("audit");

    // Live ops: the game's offers and one offer's page.
    await page.goto("/live-ops/demo-game");
    await expect(page.getByTestId("definition-card").first()).toBeVisible();
    await fits("live-ops");
    await page.goto("/live-ops/demo-game/offers/welcome-pack");
    await expect(page.getByTestId("definition-status")).toBeVisible();
    await expect(page.getByTestId("funnel-figures")).toBeVisible();
    await fits("live-ops-offer");
    await page.goto("/live-ops/demo-game/offers/streak-champion");
    await expect(page.getByTestId("definition-status")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Variants", exact: true }).first()).toBeVisible();
    await fits("live-ops-variants");

    // The support player page puts the live view and current offers before the history.
    await page.goto("/offers/demo-game/demo-player-1");
    await expect(page.getByTestId("player-title")).toBeVisible();
    await expect(page.getByTestId("offers")).toBeVisible();
    await expect(page.getByTestId("ledger")).toBeVisible();
    // On a phone the live view and the offers in play come before the snapshot and the history.
    const top = async (testId: string) => (await page.getByTestId(testId).boundingBox())!.y;
    if (width === 390) {
      expect(await top("live-view")).toBeLessThan(await top("offers"));
      expect(await top("offers")).toBeLessThan(await top("snapshot"));
      expect(await top("snapshot")).toBeLessThan(await top("ledger"));
    }
    await fits("support-player");

    // A config key of 3,000 characters: the message about it wraps.
    await page.goto("/catalog/leaderboards");
    await page.getByTestId("edit-config").click();
    await page.getByTestId("add-key").click();
    await page.getByLabel("Key 1", { exact: true }).fill(`9${"k".repeat(2999)}`);
    await page.getByLabel("Value 1", { exact: true }).fill("on");
    await expect(page.getByTestId("config-issues")).toBeVisible();
    await fits("config-key-error");
  }
});

test("a chart keeps its width until it re-measures (a phone turned): the page does not get wider meanwhile", async ({ page }) => {
  // Resize observers report 3 s late here, so the charts keep the width they had at 1280 px for a while.
  await page.addInitScript(() => {
    const Observer = window.ResizeObserver;
    window.ResizeObserver = class extends Observer {
      constructor(callback: ResizeObserverCallback) {
        super((entries, observer) => setTimeout(() => callback(entries, observer), 3_000));
      }
    };
  });
  await signInAs(page, "erin", "/catalog/checkout-api");
  await page.setViewportSize({ width: 1280, height: 900 });
  // The day's scorecard snapshot is taken as the portal starts: the chart shows once it is there.
  await expect(async () => {
    await page.goto("/owners/commerce/backend");
    await expect(page.getByTestId("group-trend-chart")).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(page.getByTestId("group-trend-chart").locator("svg").first()).toBeVisible();
  await page.waitForTimeout(3_500);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await pageOverflow(page), "a group's page just turned to 390 px is wider than the screen").toBeLessThanOrEqual(1);
});

test("on a phone the main navigation is a menu that names the current section", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, "admin", "/live-ops");
  const menu = page.getByRole("button", { name: /Menu/ });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  // The current section is named while the menu is closed.
  await expect(menu).toContainText("Live ops");
  const sections = page.getByRole("navigation", { name: "Main" });
  await expect(sections.getByRole("link", { name: "Audit" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(sections.getByRole("link", { name: "Live ops" })).toHaveAttribute("aria-current", "page");
  await sections.getByRole("link", { name: "Audit" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toContainText("Audit");
  expect(await pageOverflow(page)).toBeLessThanOrEqual(1);
  // The longest section's name shows whole beside the brand and the user's avatar, not cut short.
  await page.goto("/app-orders");
  await expect(menu).toContainText("App orders");
  const current = page.getByTestId("nav-current");
  expect(await current.evaluate((label) => label.scrollWidth - label.clientWidth), "the current section's name is cut short").toBeLessThanOrEqual(0);

  // On a desktop the sections are links in the header, no menu.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(menu).toBeHidden();
  await expect(sections.getByRole("link", { name: "Catalog" })).toBeVisible();
});
