// Journey: a live-ops user creates a real-time offer for players with a login streak of at least 3,
// sees how many players match, and activates it. A game server then pushes snapshots: the player who
// reaches a streak of 5 gets offer_surfaced on their open event stream — and the support live view
// shows it — within 2 s; the player whose streak stays at 1 gets nothing. The definition page's funnel
// counts the surfacing and, after the player claims through the API, the claim.
import type { Page } from "@playwright/test";
import { createParser } from "eventsource-parser";
import { API_KEY, GAME, gameJwt } from "./demo-game";
import { expect, expectAccessible, hydrated, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
const CLEO = "demo-player-3";
const BRAM = "demo-player-2";


interface SurfacedOffer {
  offerId: string;
  instanceId: string;
  name: string;
  status: string;
}

/** The player's event stream as their game client holds it, collecting offer_surfaced events. */
async function openPlayerStream(offersUrl: string, playerId: string) {
  const controller = new AbortController();
  const response = await fetch(`${offersUrl}/v1/sse/connect`, {
    headers: { Authorization: `Bearer ${await gameJwt(playerId)}`, Accept: "text/event-stream", "Cache-Control": "no-cache" },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const surfaced: SurfacedOffer[] = [];
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === "offer_surfaced") surfaced.push((JSON.parse(event.data) as { offer: SurfacedOffer }).offer);
    },
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // closed by the test
    }
  })();
  return {
    surfaced,
    close: async () => {
      controller.abort();
      await pump;
    },
  };
}

async function pushSnapshot(request: Page["request"], offersUrl: string, playerId: string, loginStreak: number) {
  const response = await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId, loginStreak } });
  expect(response.status()).toBe(200);
}

test("live ops creates and activates a real-time offer for streaks ≥ 3; a player reaching 5 gets it live, one at 1 does not; the funnel counts the surfacing and the claim", async ({ page, browser, request, offersUrl }) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const offerId = `streak-${stamp}`;
  const name = `Streak reward ${stamp}`;
  // Cleo and Bram start below the audience (as the demo seeds them; a rerun on the same data resets them).
  await pushSnapshot(request, offersUrl, CLEO, 1);
  await pushSnapshot(request, offersUrl, BRAM, 1);

  // Lina picks the game and starts a new offer.
  await signInAs(page, "lina", "/live-ops");
  await page.getByTestId("game-list").getByRole("link", { name: "Demo game" }).click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}$`));
  await expect(page.getByRole("navigation", { name: "Game sections" }).getByRole("link", { name: "Webhooks" })).toHaveAttribute("href", `/live-ops/${GAME}/webhooks`);
  await page.getByTestId("new-offer").click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}/new$`));

  const form = page.getByTestId("definition-form");
  await form.getByRole("textbox", { name: "Offer id" }).fill(offerId);
  await form.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await form.getByRole("textbox", { name: "Description" }).fill("Three days in a row: here is some gold.");
  await form.getByRole("combobox", { name: "Reward 1 Kind" }).selectOption("coins");
  await form.getByRole("textbox", { name: "Reward 1 Id" }).fill("gold");
  await form.getByRole("textbox", { name: "Reward 1 Name" }).fill("Gold");
  await form.getByRole("textbox", { name: "Reward 1 Amount" }).fill("25");
  await expect(form.getByRole("checkbox", { name: /Real time/ })).toBeChecked();

  // The audience: login streak ≥ 3; the count says who matches now (Aria, of the demo players and any
  // other journey's on this worker's servers).
  await form.getByRole("button", { name: "Add condition", exact: true }).click();
  await expect(form.getByRole("combobox", { name: "Condition 1 field" })).toHaveValue("loginStreak");
  await form.getByRole("combobox", { name: "Condition 1 operator" }).selectOption("gte");
  await form.getByRole("textbox", { name: "Condition 1 value" }).fill("three");
  await expect(form.getByRole("group", { name: "Condition 1" }).getByRole("alert")).toHaveText("Value: This is not a number: enter one, such as 10.");
  await form.getByRole("textbox", { name: "Condition 1 value" }).fill("3");
  await expect(page.getByTestId("audience-count")).toHaveText(/^Matches 1 of \d+ players now\.$/);

  await form.getByRole("button", { name: "Create draft" }).click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}/offers/${offerId}$`));
  await expect(page.getByTestId("definition-title")).toContainText(name);
  await expect(page.getByTestId("definition-status")).toHaveText("Draft");
  await expect(page.getByTestId("audience-summary")).toHaveText("loginStreak ≥ 3");

  // Activate: the confirmation states the audience size now.
  await page.getByTestId("lifecycle-actions").getByRole("button", { name: "Activate" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("action-consequence")).toHaveText("This will surface for 1 player now, and for every player who matches later.");
  await dialog.getByTestId("confirm-action").click();
  await expect(page.getByTestId("definition-status")).toHaveText("Active");
  // The activation job ran over the game's players: Aria matched (her slots are full: queued).
  await expect(page.getByTestId("job-progress")).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("job-figures")).toHaveText(/^(\d+) of \1 players evaluated · 1 activation$/);

  // Cleo's game client holds her event stream, Bram's his; support watches Cleo in the live view.
  const cleo = await openPlayerStream(offersUrl, CLEO);
  const bram = await openPlayerStream(offersUrl, BRAM);
  const support = await browser.newContext();
  try {
    const sam = await support.newPage();
    await signInAs(sam, "sam", `/offers/${GAME}/${CLEO}`);
    const live = sam.getByTestId("live-view");
    await expect(live.getByTestId("stream-state")).toHaveAttribute("data-status", "open");

    // The game server pushes snapshots: Bram stays at 1, Cleo reaches 5.
    await pushSnapshot(request, offersUrl, BRAM, 1);
    await pushSnapshot(request, offersUrl, CLEO, 5);
    await expect.poll(() => cleo.surfaced.filter((o) => o.offerId === offerId).length, { timeout: 2_000 }).toBe(1);
    await expect(live.getByTestId("live-log")).toContainText(name, { timeout: 2_000 });
    expect(cleo.surfaced.find((o) => o.offerId === offerId)).toMatchObject({ name, status: "surfaced" });
    expect(bram.surfaced.filter((o) => o.offerId === offerId)).toEqual([]);
  } finally {
    await support.close();
    await cleo.close();
    await bram.close();
  }

  // Why not Bram: the preview as a player says which check fails.
  const preview = page.getByTestId("player-preview");
  await preview.getByRole("searchbox", { name: "Player" }).fill("Bram");
  await preview.getByRole("button", { name: `Preview as Bram (${BRAM})` }).click();
  await expect(preview.getByTestId("preview-result")).toHaveAttribute("data-would-surface", "false");
  await expect(preview.getByRole("status")).toHaveText("Would not surface for Bram now: Audience — loginStreak is 1, needs ≥ 3.");
  await expect(preview.locator('[data-check="audience"]')).toHaveAttribute("data-passed", "false");

  // The funnel counts Cleo's surfacing (and Aria's queued assignment).
  const funnel = page.getByTestId("funnel");
  await funnel.getByRole("button", { name: "Refresh" }).click();
  await expect(funnel.getByTestId("funnel-surfaced")).toHaveText("1");
  await expect(funnel.getByTestId("funnel-assigned")).toHaveText("2");
  await expect(funnel.getByTestId("funnel-claimed")).toHaveText("0");
  // Drawn as charts too: the stages as bars, the days as lines.
  await expect(funnel.getByTestId("funnel-stages-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  await expect(funnel.getByTestId("funnel-days-chart").locator(".recharts-line").first()).toBeVisible();
  await expectAccessible(page, "the funnel drawn");

  // Cleo opens her offers (no conditions: claimable once seen) and claims it through the API.
  const jwt = await gameJwt(CLEO);
  const campaigns = await request.post(`${offersUrl}/v1/client/player/campaigns`, { headers: { Authorization: `Bearer ${jwt}` }, data: { viewingCampaigns: true } });
  const offer = ((await campaigns.json()) as { offers: SurfacedOffer[] }).offers.find((o) => o.offerId === offerId);
  expect(offer?.status).toBe("claimable");
  const claim = await request.post(`${offersUrl}/v1/client/reward/claim`, { headers: { Authorization: `Bearer ${jwt}` }, data: { kind: "offer", instanceId: offer!.instanceId } });
  expect(claim.status()).toBe(200);

  await funnel.getByRole("button", { name: "Refresh" }).click();
  await expect(funnel.getByTestId("funnel-claimed")).toHaveText("1");
  await expect(funnel.getByTestId("funnel-conversion")).toHaveText("100.0%");

  // The game's list shows it active, with its claim.
  await page.goto(`/live-ops/${GAME}`);
  const card = page.locator(`[data-testid="definition-card"][data-offer-id="${offerId}"]`);
  await expect(card.getByTestId("definition-status")).toHaveText("Active");
  await expect(card).toContainText("loginStreak ≥ 3");
  await expect(card.getByRole("img", { name: /^1 claims over the last 14 days/ })).toBeVisible();
});

test("an edit of a live offer shows what changes and asks to confirm; support may not edit", async ({ page }) => {
  const stamp = Date.now().toString(36);
  const offerId = `edit-${stamp}`;
  await signInAs(page, "lina", `/live-ops/${GAME}`);
  const origin = new URL(page.url()).origin;
  const created = await page.request.post(`/api/offers/games/${GAME}/definitions`, {
    headers: { Origin: origin },
    data: { offerId, name: "Weekend gems", rewards: [{ kind: "loyalty_currency", rewardId: "gems", name: "Gems", amount: 5 }], durationSeconds: 3600, audience: { field: "daysInGame", op: "gte", value: 30 }, status: "active" },
  });
  expect(created.status()).toBe(201);

  await openPage(page, `/live-ops/${GAME}/offers/${offerId}/edit`);
  const form = page.getByTestId("definition-form");
  await form.getByRole("textbox", { name: "Reward 1 Amount" }).fill("8");
  await form.getByRole("button", { name: "Review changes" }).click();
  await expect(page.getByTestId("change-review")).toBeVisible();
  const diff = page.getByTestId("definition-diff");
  await expect(diff.getByRole("row")).toHaveCount(2);
  await expect(diff.getByRole("row").nth(1)).toHaveText("Rewardswas 5 × Gems (Loyalty currency, gems)becomes 8 × Gems (Loyalty currency, gems)");
  await page.getByTestId("confirm-save").click();
  await expect(page).toHaveURL(new RegExp(`/live-ops/${GAME}/offers/${offerId}$`));
  await expect(page.getByTestId("definition-version")).toHaveText("version 2");

  // Support reads players but does not author offers: the page explains it, the API refuses naming the role.
  await signInAs(page, "sam", "/live-ops");
  await expect(page.getByTestId("liveops-role-needed")).toContainText("You need the liveops role");
  const refused = await page.request.post(`/api/offers/games/${GAME}/definitions/${offerId}/pause`, { headers: { Origin: origin } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ message: "forbidden", detail: "this needs the liveops role", requiredRole: "liveops" });
});

test("someone else saves first: the editor says so and keeps what was typed; a reload shows their change", async ({ page }) => {
  const offerId = `race-${Date.now().toString(36)}`;
  await signInAs(page, "lina", `/live-ops/${GAME}`);
  const origin = new URL(page.url()).origin;
  const body = { name: "Race offer", rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5 }], durationSeconds: 3600 };
  expect((await page.request.post(`/api/offers/games/${GAME}/definitions`, { headers: { Origin: origin }, data: { offerId, ...body } })).status()).toBe(201);

  await openPage(page, `/live-ops/${GAME}/offers/${offerId}/edit`);
  const name = page.getByTestId("definition-form").getByRole("textbox", { name: "Name", exact: true });
  await name.fill("Race offer (mine)");

  // Meanwhile a colleague saves over the same state of the offer.
  const read = await page.request.get(`/api/offers/games/${GAME}/definitions/${offerId}`);
  const theirs = await page.request.put(`/api/offers/games/${GAME}/definitions/${offerId}`, { headers: { Origin: origin, "If-Match": read.headers()["etag"]! }, data: { ...body, name: "Race offer (theirs)" } });
  expect(theirs.status()).toBe(200);

  // A draft saves without a review: refused, said in words, and the form keeps what was typed.
  await page.getByTestId("save-definition").click();
  const failure = page.getByTestId("save-failure");
  await expect(failure).toContainText("Someone changed this offer since you opened it; reload to see their change.");
  await expect(name).toHaveValue("Race offer (mine)");
  await failure.getByRole("button", { name: "Reload" }).click();
  await hydrated(page);
  await expect(page.getByTestId("definition-form").getByRole("textbox", { name: "Name", exact: true })).toHaveValue("Race offer (theirs)");
});

test("the live-ops pages fit 390 px and 1440 px; an unknown offer shows the not-found page", async ({ page }) => {
  test.setTimeout(240_000);
  await signInAs(page, "lina", "/live-ops");
  const pages: Array<[string, string, string]> = [
    ["live-ops", "/live-ops", "game-list"],
    ["game", `/live-ops/${GAME}`, "definition-list"],
    ["new", `/live-ops/${GAME}/new`, "definition-form"],
    ["offer", `/live-ops/${GAME}/offers/welcome-pack`, "definition-facts"],
    ["edit", `/live-ops/${GAME}/offers/welcome-pack/edit`, "definition-form"],
  ];
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const [name, path, ready] of pages) {
      await openPage(page, path);
      await expect(page.getByTestId(ready)).toBeVisible();
      if (name === "new") await page.getByRole("button", { name: "Add condition", exact: true }).click();
      if (name === "offer") await expect(page.getByTestId("funnel-days-chart").locator(".recharts-line").first()).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} at ${width} px is wider than the screen`).toBeLessThanOrEqual(1);
    }
  }
  await page.goto(`/live-ops/${GAME}/offers/no-such-offer`);
  await expect(page.getByTestId("not-found-page").getByRole("heading", { name: "No such offer" })).toBeVisible();
});
