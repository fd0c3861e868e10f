// Journey: support acts on a player's offers from the player page. Support expires one offer and extends
// another, each with a reason; the page shows both without a reload (the expired offer among the past ones,
// the extended one with its new expiry), the offers' timelines name who did it and why, and the offers
// service's own view of the player agrees.
import type { Page } from "@playwright/test";
import { API_KEY, GAME } from "./demo-game";
import { expect, expectAccessible, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
/** The offers admin token the journeys' servers run with (scripts/e2e-server.mjs). */
const adminHeaders = { authorization: "Bearer e2e-offers-admin-token-0123456789" };

/** How much wider than the screen the page is, at a 390 px phone's width (then back to the default). */
async function overflowAtPhoneWidth(page: Page): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (before) await page.setViewportSize(before);
  return overflow;
}

/** A date-time field's value (local time of the browser, which runs on this machine) for an instant. */
const localInput = (at: Date) => new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

test("support expires one offer and extends another; the player page shows both, with who and why", async ({ page, request, offersUrl }) => {
  const unique = Date.now().toString(36);
  const player = `acted-${unique}`;
  const coins = { kind: "coins", rewardId: "gold", name: "Gold", amount: 25 };
  for (const [offerId, name] of [[`stuck-${unique}`, "Stuck pack"], [`short-${unique}`, "Short pack"]]) {
    const defined = await request.put(`${offersUrl}/v1/offers/definitions/${offerId}`, { headers: serverHeaders, data: { name, rewards: [coins], durationSeconds: 3600 } });
    expect(defined.status()).toBe(200);
  }
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId: player, username: "Wren" } })).status()).toBe(200);
  const assign = async (offerId: string) => {
    const res = await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: serverHeaders, data: { playerId: player, offerId } });
    expect(res.status()).toBe(200);
    return ((await res.json()) as { instanceId: string }).instanceId;
  };
  const stuck = await assign(`stuck-${unique}`);
  const short = await assign(`short-${unique}`);
  const card = (instanceId: string) => page.locator(`[data-testid="offer"][data-instance-id="${instanceId}"]`);

  await signInAs(page, "sam", `/offers/${GAME}/${player}`);
  await expect(card(stuck)).toHaveAttribute("data-status", "surfaced");

  // Expire the stuck offer, with a reason.
  await card(stuck).getByText("Support actions").click();
  await card(stuck).getByTestId("offer-action-expire").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Expire Stuck pack");
  await dialog.getByLabel("Reason").fill("Stuck after the login outage");
  await expectAccessible(page, "offer action dialog open");
  await dialog.getByTestId("offer-action-submit").click();
  await expect(page.getByTestId("action-outcome")).toHaveText("Stuck pack expired.");
  await expect(card(stuck)).toHaveAttribute("data-status", "expired");
  await page.getByTestId("past-offers").getByText(/past offer/).click();
  await card(stuck).getByText(/^Timeline/).click();
  await expect(card(stuck).getByTestId("event-note")).toHaveText("by sam: Stuck after the login outage");

  // Extend the other one by two days.
  const until = new Date(Date.now() + 2 * 24 * 3600_000);
  await card(short).getByText("Support actions").click();
  await card(short).getByTestId("offer-action-extend").click();
  await expect(dialog).toContainText("Extend Short pack");
  await dialog.getByLabel("New expiry").fill(localInput(until));
  await dialog.getByLabel("Reason").fill("Lost two days to the outage");
  await dialog.getByTestId("offer-action-submit").click();
  await expect(page.getByTestId("action-outcome")).toContainText("Short pack now expires");
  await expect(card(short)).toHaveAttribute("data-status", "surfaced");
  await card(short).getByText(/^Timeline/).click();
  await expect(card(short)).toContainText("extended");
  await expect(card(short).getByTestId("event-note")).toHaveText("by sam: Lost two days to the outage");
  expect(await overflowAtPhoneWidth(page), "the player page with its offer actions at 390 px").toBeLessThanOrEqual(1);

  // The offers service agrees: the history has cause support with who and why.
  const state = (await (await request.get(`${offersUrl}/v1/admin/games/${GAME}/players/${player}`, { headers: adminHeaders })).json()) as {
    offers: Array<{ instanceId: string; status: string; expiresAt: string; events: Array<{ type: string; cause: string; actor: string | null }> }>;
  };
  const byId = new Map(state.offers.map((o) => [o.instanceId, o]));
  expect(byId.get(stuck)).toMatchObject({ status: "expired", events: expect.arrayContaining([expect.objectContaining({ type: "expired", cause: "support", actor: "sam" })]) });
  expect(byId.get(short)!.status).toBe("surfaced");
  expect(Math.abs(Date.parse(byId.get(short)!.expiresAt) - until.getTime())).toBeLessThan(60_000);
});
