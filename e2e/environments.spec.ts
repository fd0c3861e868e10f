// Journey: the portal's live/test switch. A live-ops user switches the console to the demo game's test
// environment, creates an offer there, sees it listed in test and not in live; the environment stays in
// the address through links, a reload and the form. A support user watches a test player (made with the
// test credentials) in test: the live view's stream is the test environment's, and live has no such player.
import type { Page } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const GAME = "demo-game";
const testServer = { "x-api-key": "ok_test_demo-api-key", "x-client-id": "cl_test_demo" };

/** Picks an environment with the switch and waits until the page has moved to it. */
async function switchTo(page: Page, environment: "Live" | "Test") {
  const bar = page.getByTestId("environment-bar");
  await bar.getByRole("radio", { name: environment }).click();
  await expect(bar).toHaveAttribute("data-environment", environment.toLowerCase());
}

test("live ops switches to test, creates an offer there, and sees it in test and not in live", async ({ page }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const offerId = `test-env-${stamp}`;
  const name = `Test drop ${stamp}`;

  await signInAs(page, "lina", "/live-ops");
  const bar = page.getByTestId("environment-bar");
  await expect(bar).toHaveAttribute("data-environment", "live");
  await expect(bar.getByTestId("environment-label")).toHaveText("Live environment");
  await page.getByTestId("game-list").getByRole("link", { name: "Demo game" }).click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}$`));
  await expect(page.getByTestId("definition-list")).toBeVisible();

  // To test: the address says so, the bar and a frame around the window say so, the tab's title too.
  await switchTo(page, "Test");
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}\\?env=test$`));
  await expect(bar.getByTestId("environment-label")).toHaveText("Test environment");
  await expect(page.getByTestId("test-frame")).toBeVisible();
  await expect(page).toHaveTitle(/^Test · /);
  // The test environment holds the demo definitions too; the links keep test.
  await expect(page.locator('[data-testid="definition-card"][data-offer-id="welcome-pack"]')).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Game sections" }).getByRole("link", { name: "Webhooks" })).toHaveAttribute("href", `/live-ops/${GAME}/webhooks?env=test`);

  await page.getByTestId("new-offer").click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}/new\\?env=test$`));
  await expect(bar).toHaveAttribute("data-environment", "test");
  const form = page.getByTestId("definition-form");
  await form.getByRole("textbox", { name: "Offer id" }).fill(offerId);
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await form.getByRole("combobox", { name: "Reward 1 Kind" }).selectOption("coins");
  await form.getByRole("textbox", { name: "Reward 1 Id" }).fill("gold");
  await form.getByRole("textbox", { name: "Reward 1 Name" }).fill("Gold");
  await form.getByRole("textbox", { name: "Reward 1 Amount" }).fill("10");
  await form.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}/offers/${offerId}\\?env=test$`));
  await expect(page.getByTestId("definition-title")).toContainText(name);

  // A reload keeps test.
  await page.reload();
  await hydrated(page);
  await expect(bar).toHaveAttribute("data-environment", "test");
  await expect(page.getByTestId("definition-title")).toContainText(name);

  // Listed in test…
  await page.getByRole("link", { name: GAME, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}\\?env=test$`));
  await expect(page.locator(`[data-testid="definition-card"][data-offer-id="${offerId}"]`)).toContainText(name);

  // …and not in live.
  await switchTo(page, "Live");
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}$`));
  await expect(page.getByTestId("test-frame")).toHaveCount(0);
  await expect(page.locator('[data-testid="definition-card"][data-offer-id="welcome-pack"]')).toBeVisible();
  await expect(page.locator(`[data-testid="definition-card"][data-offer-id="${offerId}"]`)).toHaveCount(0);
  await page.goto(`/live-ops/${GAME}/offers/${offerId}`);
  await expect(page.getByTestId("not-found-page").getByRole("heading", { name: "No such offer" })).toBeVisible();

  // The portal's API agrees.
  const origin = new URL(page.url()).origin;
  const ids = async (environment: string) =>
    ((await (await page.request.get(`/api/offers/games/${GAME}/definitions?environment=${environment}`, { headers: { Origin: origin } })).json()) as { definitions: Array<{ offerId: string }> }).definitions.map((d) => d.offerId);
  expect(await ids("test")).toContain(offerId);
  expect(await ids("live")).not.toContain(offerId);
});

test("support watches a test player in test; the live environment has no such player", async ({ page, request, offersUrl }) => {
  const stamp = Date.now().toString(36);
  const playerId = `tester-${stamp}`;
  const offerId = `test-live-${stamp}`;
  const name = `Test live drop ${stamp}`;
  // The game server's test credentials reach the test environment only.
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: testServer, data: { playerId, username: `Tess ${stamp}` } })).status()).toBe(200);
  const upsert = await request.put(`${offersUrl}/v1/offers/definitions/${offerId}`, {
    headers: testServer,
    data: { name, rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5 }], realTime: true, durationSeconds: 3600 },
  });
  expect(upsert.status()).toBe(200);

  await signInAs(page, "sam", "/offers?env=test");
  await expect(page.getByTestId("environment-bar")).toHaveAttribute("data-environment", "test");
  await expect(page.getByTestId("game-picker")).toHaveValue(GAME);
  const watch = page.waitForRequest((r) => r.url().includes(`/players/${playerId}/watch`));
  await page.getByTestId("player-search").fill(playerId);
  await page.getByTestId("player-results").getByRole("link", { name: playerId }).click();
  await expect(page).toHaveURL(new RegExp(`/offers/${GAME}/${playerId}\\?env=test$`));
  expect(new URL((await watch).url()).searchParams.get("environment")).toBe("test");
  await expect(page.getByTestId("player-title")).toContainText(`Tess ${stamp}`);
  const live = page.getByTestId("live-view");
  await expect(live.getByTestId("stream-state")).toHaveAttribute("data-status", "open");

  // An offer assigned with the test credentials reaches the test live view.
  expect((await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: testServer, data: { playerId, offerId } })).status()).toBe(200);
  await expect(live.getByTestId("live-log")).toContainText(name);

  // In live the same id names nobody.
  await switchTo(page, "Live");
  await expect(page).toHaveURL(new RegExp(`/offers/${GAME}/${playerId}$`));
  await expect(page.getByTestId("not-found-page").getByRole("heading", { name: "No such player" })).toBeVisible();
});

test("the test environment's pages fit 390 px and 1440 px", async ({ page }) => {
  await signInAs(page, "admin", "/live-ops?env=test");
  const pages: Array<[string, string, string]> = [
    ["live-ops", "/live-ops?env=test", "game-list"],
    ["game", `/live-ops/${GAME}?env=test`, "definition-list"],
    ["webhooks", `/live-ops/${GAME}/webhooks?env=test`, "delivery-lag"],
    ["offers", "/offers?env=test", "game-picker"],
  ];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const [label, path, ready] of pages) {
      await page.goto(path);
      await expect(page.getByTestId("environment-bar")).toHaveAttribute("data-environment", "test");
      await expect(page.getByTestId(ready)).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${label}-test-${width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${label} at ${width} px is wider than the screen`).toBeLessThanOrEqual(1);
    }
  }
});
