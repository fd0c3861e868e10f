// Journey: support reads a player's timeline. From the player page, the timeline tells what happened to
// the player newest first, in words (the offer the game server assigned, a compensation granted with who
// and why), keeps only the kinds chosen, fits a phone, and shows a new grant without a reload.
import { API_KEY, GAME } from "./demo-game";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
/** The offers admin token the journeys' servers run with (scripts/e2e-server.mjs). */
const adminHeaders = { authorization: "Bearer e2e-offers-admin-token-0123456789" };

test("support follows what happened to a player on the timeline, filtered and live", async ({ page, request, offersUrl }) => {
  const player = `timeline-${Date.now().toString(36)}`;
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId: player, username: "Ivo" } })).status()).toBe(200);
  expect((await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: serverHeaders, data: { playerId: player, offerId: "fair-play" } })).status()).toBe(200);
  const grant = (amount: number, reason: string) =>
    request.post(`${offersUrl}/v1/admin/games/${GAME}/players/${player}/support-grants`, { headers: adminHeaders, data: { kind: "coins", rewardId: "gold", amount, reason, actor: "sam" } });
  expect((await grant(250, "Lost coins in the login outage")).status()).toBe(200);

  await signInAs(page, "sam", `/offers/${GAME}/${player}`);
  await page.getByTestId("player-timeline-link").click();
  await expect(page.getByRole("heading", { name: `Timeline of ${player}` })).toBeVisible();
  const timeline = page.getByRole("list", { name: `Timeline of ${player}, newest first` });
  // Another journey on this worker's servers may have added a webhook endpoint to the demo game: this
  // player's deliveries to it are not this journey's story, so the order is read without them; the
  // player's activity (the snapshot pushed, streams) is read on its own below.
  const entries = timeline.locator(':scope > li:not([data-kind="delivery"]):not([data-kind="activity"])');
  // The grant and the reward it wrote share an instant: the reward reads above the grant that caused it.
  await expect(entries.first()).toContainText("250 Gold granted by sam.");
  await expect(entries.nth(1)).toContainText("sam granted 250 Gold.");
  await expect(timeline).toContainText("Reason: Lost coins in the login outage");
  await expect(entries.last()).toContainText("Offer “Fair play” surfaced on the game server's assignment.");
  await expect(timeline.locator(':scope > li[data-kind="activity"]').last()).toContainText("Snapshot pushed: 1 field");

  // Only the offers.
  await page.getByRole("checkbox", { name: "Rewards" }).uncheck();
  await page.getByRole("checkbox", { name: "Support" }).uncheck();
  await expect(timeline).not.toContainText("Gold");
  await expect(entries.first()).toContainText("Offer “Fair play”");
  await page.getByRole("checkbox", { name: "Rewards" }).check();
  await page.getByRole("checkbox", { name: "Support" }).check();
  await expect(entries.first()).toContainText("250 Gold granted by sam.");

  // At a phone's width nothing runs off the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1440, height: 900 });

  // A grant made elsewhere appears while the page is open.
  expect((await grant(40, "Goodwill after the chat report")).status()).toBe(200);
  await expect(entries.first()).toContainText("40 Gold granted by sam.", { timeout: 30_000 });
  await expect(entries.nth(1)).toContainText("sam granted 40 Gold.");
});
