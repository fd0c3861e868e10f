import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
// Journey: a player opens the rewards link from the game, claims an offer, and the link works once.
// The one-time token is generated through the offers API with a JWT signed with the demo API key,
// as a game client would get it from its game server.
import type { APIRequestContext } from "@playwright/test";
import { API_KEY, GAME, gameJwt } from "./demo-game";
import { expect, expectAccessible, hydrated, openPage, test } from "./fixtures";

const CLIENT_ID = "demo-client";
const PLAYER = "demo-player-2"; // Bram in the demo data
const serverHeaders = { "x-api-key": API_KEY, "x-client-id": CLIENT_ID };


async function oneTimeToken(request: APIRequestContext, offersUrl: string, playerId: string): Promise<string> {
  const response = await request.post(`${offersUrl}/v1/auth/one_time_token/generate`, {
    headers: { Authorization: `Bearer ${await gameJwt(playerId)}` },
    data: {},
  });
  expect(response.status()).toBe(200);
  const { token } = (await response.json()) as { token: string };
  expect(token).toBeTruthy();
  return token;
}

test("a player opens the rewards link, claims an offer and sees it claimed; the same link again is refused", async ({ page, request, offersUrl }) => {
  // "Fair play" has no conditions: assigned into a free slot, it becomes claimable when viewed (the
  // demo's own expired). No other journey gives Bram offers.
  const assigned = await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: serverHeaders, data: { playerId: PLAYER, offerId: "fair-play" } });
  expect(assigned.status()).toBe(200);

  const token = await oneTimeToken(request, offersUrl, PLAYER);
  const link = `/rewards?token=${encodeURIComponent(token)}&gameId=${GAME}`;
  await openPage(page, link);

  // Redeemed on the server: the token is gone from the address, the session is an httpOnly cookie.
  await expect(page).toHaveURL(/\/rewards$/);
  await expect(page.getByRole("heading", { name: "Hi Bram!" })).toBeVisible();
  const cookie = (await page.context().cookies()).find((c) => c.name === "rewards_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/rewards" });

  // Offers with status, rewards (images and amounts), progress bars and time left.
  const spender = page.getByTestId("reward-offer").filter({ hasText: "Big spender" });
  await expect(spender.getByTestId("offer-status")).toHaveText("Viewed");
  await expect(spender.getByRole("progressbar", { name: "Spend 500 Gold" })).toHaveAttribute("aria-valuemax", "500");
  await expect(spender.getByTestId("time-left")).toHaveText(/left$/);
  await expect(spender.getByTestId("reward").first()).toContainText("×5 Gems");

  const fairPlay = page.locator('[data-testid="reward-offer"][data-status="claimable"]').filter({ hasText: "Fair play" });
  await expect(fairPlay).toHaveCount(1);
  await expect(fairPlay.getByTestId("reward")).toContainText("×10 Trust points");
  await expect(fairPlay.getByTestId("reward").locator("img")).toHaveAttribute("src", /^data:image\/svg\+xml/);
  const instanceId = await fairPlay.getAttribute("data-instance-id");
  expect(instanceId).toBeTruthy();

  await fairPlay.getByRole("button", { name: "Claim Fair play" }).click();
  const claimed = page.locator(`[data-instance-id="${instanceId}"]`);
  await expect(claimed).toHaveAttribute("data-status", "claimed");
  await expect(claimed.getByTestId("offer-status")).toHaveText("Claimed");
  await expect(claimed).toContainText("Rewards claimed");
  await expect(claimed.getByRole("button", { name: /Claim/ })).toHaveCount(0);
  await expectAccessible(page, "an offer claimed");
  // Confirmed in a live region (announced by screen readers), naming what was granted.
  await expect(page.getByRole("status").filter({ hasText: "Claimed Fair play" })).toHaveText("Claimed Fair play: 10 Trust points. It is on its way to your game.");

  // Claimed for real: the server view agrees, and nothing secret reached the browser.
  const refresh = await request.post(`${offersUrl}/v1/player/campaigns/refresh`, { headers: serverHeaders, data: { playerId: PLAYER } });
  const offers = ((await refresh.json()) as { offers: { instanceId: string; status: string }[] }).offers;
  expect(offers.find((o) => o.instanceId === instanceId)?.status).toBe("claimed");
  const html = await page.content();
  expect(html).not.toContain(API_KEY);
  expect(html).not.toContain(cookie!.value);

  // The same link again: one-time tokens work once.
  await page.goto(link);
  await expect(page).toHaveURL(/\/rewards\?error=used$/);
  await expect(page.getByRole("heading", { name: "This link has already been used" })).toBeVisible();
});

test("a player sees the friends they invited, and claims the reward once a friend starts playing", async ({ page, request, offersUrl }) => {
  const run = Date.now().toString(36);
  const inviter = `inviter-${run}`;
  const friend = `friend-${run}`;
  const created = await request.post(`${offersUrl}/v1/referrals`, {
    headers: serverHeaders,
    data: { referrerId: inviter, refereeId: friend, rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }] },
  });
  expect(created.status()).toBe(200);
  const { instanceId } = (await created.json()) as { instanceId: string };
  // The inviter plays already: the game knows their Gold.
  const snapshot = { playerId: inviter, username: "Inviter", currencies: { gold: { balance: 120, in: 120, out: 0 } } };
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: snapshot })).status()).toBe(200);

  await page.goto(`/rewards?token=${encodeURIComponent(await oneTimeToken(request, offersUrl, inviter))}&gameId=${GAME}`);
  await expect(page.getByTestId("balance-gold")).toHaveText("120 Gold");
  await expect(page.getByRole("heading", { name: "Friends you invited" })).toBeVisible();
  const card = page.locator(`[data-testid="reward-referral"][data-instance-id="${instanceId}"]`);
  await expect(card.getByRole("heading", { name: `Invited ${friend}` })).toBeVisible();
  await expect(card.getByTestId("referral-status")).toHaveText("Waiting for your friend");
  await expect(card.getByTestId("reward")).toContainText("×50 Gold");
  await expect(card.getByRole("button", { name: /Claim/ })).toHaveCount(0);

  // The friend starts playing (the game server pushes their first snapshot): the reward unlocks.
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId: friend, username: "Friend" } })).status()).toBe(200);
  await page.reload();
  await hydrated(page);
  await expect(card.getByTestId("referral-status")).toHaveText("Claimable");
  await expect(card.getByRole("heading", { name: "Invited Friend" })).toBeVisible(); // their name, now that they play
  await expect(page.getByText("You have rewards ready to claim.")).toBeVisible();
  await card.getByRole("button", { name: "Claim Invited Friend" }).click();
  await expect(card).toHaveAttribute("data-status", "claimed");
  await expect(card).toContainText("Rewards claimed");
  // Confirmed; the balance is still the game's last report, with the claimed Gold beside it.
  await expect(page.getByTestId("claim-confirmation")).toHaveText("Claimed Invited Friend: 50 Gold. It is on its way to your game.");
  await expect(page.getByTestId("balance-gold")).toHaveText("120 Gold (+50 claimed, on its way)");
  await expect(page.getByTestId("balances-as-of")).toContainText("As your game last reported them");
  // The claimed amount comes from the ledger, not the page's memory: a reload keeps it until the game reports again.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("balance-gold")).toHaveText("120 Gold (+50 claimed, on its way)");
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { ...snapshot, currencies: { gold: { balance: 170, in: 170, out: 0 } } } })).status()).toBe(200);
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("balance-gold")).toHaveText("170 Gold");

  // Granted once: the game server's claim of the same referral is refused.
  const again = await request.post(`${offersUrl}/v1/reward/sdk/claim`, { headers: serverHeaders, data: { kind: "referral", instanceId, playerId: inviter } });
  expect(again.status()).toBe(409);
});

test("an invalid link and an expired session say so clearly", async ({ page, context }) => {
  await page.goto(`/rewards?token=not-a-real-token&gameId=${GAME}`);
  await expect(page.getByRole("heading", { name: "This link is not valid" })).toBeVisible();

  await page.goto("/rewards");
  await expect(page.getByRole("heading", { name: "Open your rewards from the game" })).toBeVisible();

  // A session whose JWT has expired asks the player to reopen the link from the game.
  const expired = await gameJwt(PLAYER, Math.floor(Date.now() / 1000) - 60);
  const base = new URL(page.url());
  await context.addCookies([{ name: "rewards_session", value: expired, domain: base.hostname, path: "/rewards", httpOnly: true, sameSite: "Lax" }]);
  await page.goto("/rewards");
  await expect(page.getByRole("heading", { name: "Your session has expired" })).toBeVisible();
  await expect(page.getByText("Reopen the rewards link from the game")).toBeVisible();
});

/** A GET of the portal from a local source address of our choosing (127.0.0.x): its Location header. */
function openFrom(portalUrl: string, localAddress: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${portalUrl}${path}`, { localAddress, agent: false }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.headers.location ?? `status ${response.statusCode}`));
    });
    request.on("error", reject);
    request.end();
  });
}

test("players from their own addresses open their links while one address hammers made-up tokens", async ({ request, portalUrl, offersUrl }) => {
  test.setTimeout(240_000);
  const hammer = "127.0.0.200";
  // Past the client budget of one address (OFFERS_RATE_LIMIT_CLIENT_PER_MINUTE, 600), a few at a time.
  const hammered: string[] = [];
  for (let round = 0; round < 31; round++) {
    hammered.push(...(await Promise.all(Array.from({ length: 20 }, () => openFrom(portalUrl, hammer, `/rewards/redeem?token=${randomBytes(32).toString("base64url")}&gameId=${GAME}`)))));
  }
  expect(hammered.at(-1)).toMatch(/^\/rewards\?error=unavailable&retryAfter=\d+$/);

  const outcomes: string[] = [];
  for (let i = 1; i <= 45; i++) {
    const token = await oneTimeToken(request, offersUrl, `crowd-${Date.now().toString(36)}-${i}`);
    outcomes.push(await openFrom(portalUrl, `127.0.0.${i}`, `/rewards/redeem?token=${encodeURIComponent(token)}&gameId=${GAME}`));
  }
  expect(outcomes).toEqual(Array.from({ length: 45 }, () => "/rewards"));
});

test("a cross-origin POST to the rewards page is refused with a 4xx, never a 500", async ({ request }) => {
  // As a server action would be called from another site; the app has none, so Next.js refuses it.
  const action = await request.post("/rewards", {
    headers: { "Next-Action": "6074ff891742596c8ef0baba92c053ff1d8d0a2ffd", Origin: "http://evil.example", "Content-Type": "text/plain;charset=UTF-8" },
    data: '[{},"$K1"]',
  });
  expect(action.status()).toBeGreaterThanOrEqual(400);
  expect(action.status()).toBeLessThan(500);
  // The Claim buttons' own route refuses another site's claim.
  const claim = await request.post("/rewards/claim", { headers: { Origin: "http://evil.example" }, multipart: { kind: "offer", instanceId: "x" } });
  expect(claim.status()).toBe(403);
});
