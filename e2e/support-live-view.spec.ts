// Journey: a support user finds a demo player and opens the live view; an offer assigned through the
// API appears in the log within 2 s without a reload, and the player's presence follows their stream.
import { API_KEY, GAME, gameJwt } from "./demo-game";
import { expect, expectAccessible, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
const PLAYER = "demo-player-3"; // Cleo in the demo data


test("a support user opens a player's live view; an assigned offer appears within 2 s without a reload", async ({ page, request, offersUrl }) => {
  // A new real-time definition per run, so the test can run again on the same data.
  const stamp = Date.now().toString(36);
  const offerId = `e2e-live-${stamp}`;
  const name = `Live drop ${stamp}`;
  const upsert = await request.put(`${offersUrl}/v1/offers/definitions/${offerId}`, {
    headers: serverHeaders,
    data: {
      name,
      description: "Pushed while support watches.",
      rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 25 }],
      realTime: true,
      durationSeconds: 3600,
    },
  });
  expect(upsert.status()).toBe(200);

  await signInAs(page, "sam", "/offers");
  await expect(page).toHaveURL(/\/offers/);
  await expect(page.getByTestId("game-picker")).toHaveValue(GAME);
  await page.getByTestId("player-search").fill("Cleo");
  await page.getByTestId("player-results").getByRole("link", { name: PLAYER }).click();
  await expect(page).toHaveURL(new RegExp(`/offers/${GAME}/${PLAYER}$`));

  // The player's state: snapshot, currencies, offers with their timeline.
  await expect(page.getByTestId("player-title")).toContainText("Cleo");
  await expect(page.getByTestId("currencies")).toContainText("Gold");
  await expect(page.getByTestId("offer").filter({ hasText: "Welcome pack" }).first()).toBeVisible();

  // The live view is connected and the player is offline; what happened before it opened is listed
  // from the player's history (Cleo's welcome pack surfaced when the demo was seeded).
  const live = page.getByTestId("live-view");
  await expect(live.getByTestId("live-log").locator('li[data-type="surfaced"]').filter({ hasText: "Welcome pack" })).toHaveCount(1);
  await expectAccessible(page, "the live view's log filled");
  await expect(live.getByTestId("stream-state")).toHaveAttribute("data-status", "open");
  await expect(live.getByTestId("player-presence")).toHaveAttribute("data-online", "false");

  const assigned = await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: serverHeaders, data: { playerId: PLAYER, offerId } });
  expect(assigned.status()).toBe(200);
  const started = Date.now();
  await expect(live.getByTestId("live-log")).toContainText(name, { timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
  // The offers list follows the stream as well (no reload).
  await expect(page.getByTestId("offer").filter({ hasText: name })).toBeVisible();

  // The player connects to their event stream: shown online; disconnects: offline.
  const jwt = await gameJwt(PLAYER);
  const stream = new AbortController();
  const response = await fetch(`${offersUrl}/v1/sse/connect`, { headers: { Authorization: `Bearer ${jwt}`, Accept: "text/event-stream" }, signal: stream.signal });
  expect(response.status).toBe(200);
  await expect(live.getByTestId("player-presence")).toHaveAttribute("data-online", "true");
  stream.abort();
  await expect(live.getByTestId("player-presence")).toHaveAttribute("data-online", "false");
  await expect(live.getByTestId("live-log")).toContainText("Player's event stream closed");

  // After a reload the offer assigned live is still listed, once (history and stream agree on the event).
  await page.reload();
  await expect(live.getByTestId("stream-state")).toHaveAttribute("data-status", "open");
  await expect(live.getByTestId("live-log").locator("li").filter({ hasText: name })).toHaveCount(1);
  await expect(live.getByTestId("live-log").locator('li[data-type="surfaced"]').filter({ hasText: "Welcome pack" })).toHaveCount(1);
});

test("without the support role the dashboard explains it and the API answers 403", async ({ page }) => {
  await signInAs(page, "eddie", "/offers");
  await expect(page.getByTestId("support-role-needed")).toContainText("You need the support role");
  await expect(page.getByTestId("lead-approvals-link")).toHaveCount(0);
  const api = await page.request.get("/api/offers/games");
  expect(api.status()).toBe(403);
  // The games list serves live ops and the leads who decide support grants too, so its refusal names every role.
  expect(await api.json()).toEqual({ message: "forbidden", detail: "this needs the support or liveops or lead role", requiredRole: "support or liveops or lead" });
  const watch = await page.request.get(`/api/offers/games/${GAME}/players/${PLAYER}/watch`);
  expect(watch.status()).toBe(403);
});
