// Journey: a support user looks up a player by something that cannot be a player id (spaces, emoji,
// markup, 10,000 characters). The finder says the rule before navigating; a direct address with such an
// id shows a page that says the rule in words, opens no live view, and fits the screen.
import { GAME } from "./demo-game";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const BAD_IDS = ["player one", "🎮 gamer", "<script>alert(1)</script>", "x".repeat(10_000)];
const RULE = /a player id is 1 to 200 characters/i;

for (const width of [390, 1440]) {
  test(`at ${width} px, the finder says the player-id rule before opening anything`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signInAs(page, "sam", "/offers");
    await expect(page.getByTestId("game-picker")).toHaveValue(GAME);
    for (const bad of BAD_IDS.slice(0, 3)) {
      await page.getByTestId("player-search").fill(bad);
      await page.getByRole("button", { name: "Open player" }).click();
      await expect(page.getByRole("alert").filter({ hasText: RULE })).toBeVisible();
      await expect(page).toHaveURL(/\/offers(\?|$)/);
    }
  });

  test(`at ${width} px, a direct address with a bad player id says the rule, opens no live view and fits the screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await signInAs(page, "sam", "/offers");
    for (const bad of BAD_IDS) {
      await page.goto(`/offers/${GAME}/${encodeURIComponent(bad)}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText("Not a valid player id");
      await expect(page.getByTestId("not-found-page")).toContainText(RULE);
      await expect(page.getByTestId("live-view")).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${bad.slice(0, 20)} at ${width} px is wider than the screen`).toBeLessThanOrEqual(0);
    }
  });
}
