// Journey: a live-ops user adds the game server's webhook endpoint (a receiver this test runs on
// loopback, verifying signatures with the standardwebhooks package), a player claims a reward on the
// rewards page, the delivery log shows it delivered, and the game server got the rewards.
import type { APIRequestContext } from "@playwright/test";
import { startReceiver, type Receiver } from "../test-support/offers/delivery";
import { API_KEY, GAME, gameJwt } from "./demo-game";
import { expect, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

async function rewardsLink(request: APIRequestContext, offersUrl: string, playerId: string): Promise<string> {
  const response = await request.post(`${offersUrl}/v1/auth/one_time_token/generate`, { headers: { Authorization: `Bearer ${await gameJwt(playerId)}` }, data: {} });
  expect(response.status()).toBe(200);
  const { token } = (await response.json()) as { token: string };
  return `/rewards?token=${encodeURIComponent(token)}&gameId=${GAME}`;
}

test("a live-ops user adds an endpoint; a reward claimed on the rewards page reaches it, signed, and the log shows it delivered", async ({ page, request, offersUrl }) => {
  const player = `webhook-player-${Date.now().toString(36)}`;
  // A new player of the demo game with "Fair play" (no conditions: claimable once viewed).
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId: player, username: "Wren" } })).status()).toBe(200);
  expect((await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: serverHeaders, data: { playerId: player, offerId: "fair-play" } })).status()).toBe(200);

  await signInAs(page, "lina", `/live-ops/${GAME}/webhooks`);
  await expect(page.getByRole("heading", { name: "Reward webhooks" })).toBeVisible();
  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByLabel("Description").fill("e2e game server");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("signing-secret")).toHaveText(/^whsec_/);
  receiver.secret = (await dialog.getByTestId("signing-secret").textContent())!;
  await dialog.getByRole("button", { name: "Done" }).click();
  const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: receiver.url });
  await expect(endpoint.getByTestId("endpoint-status")).toHaveText("Enabled");

  // The player claims on the rewards page.
  const player2 = await page.context().browser()!.newContext();
  const rewards = await player2.newPage();
  await openPage(rewards, await rewardsLink(request, offersUrl, player));
  await expect(rewards.getByRole("heading", { name: "Hi Wren!" })).toBeVisible();
  await rewards.getByRole("button", { name: "Claim Fair play" }).click();
  await expect(rewards.getByRole("status").filter({ hasText: "Claimed Fair play" })).toBeVisible();
  await player2.close();

  // The game server received it once, verified with the secret shown once.
  await expect.poll(() => receiver.received.filter((r) => r.verified !== null).length, { timeout: 20_000 }).toBeGreaterThan(0);
  const received = receiver.received.filter((r) => r.verified !== null);
  const event = received[0]!.verified as { id: string; type: string; data: Record<string, unknown> };
  expect(received).toHaveLength(1);
  expect(received[0]!.id).toBe(event.id);
  expect(event).toMatchObject({
    type: "reward.granted",
    data: { gameId: GAME, playerId: player, kind: "offer", offerId: "fair-play", source: "dashboard", rewards: [expect.objectContaining({ name: "Trust points", amount: 10 })] },
  });

  // The delivery log shows it delivered (the page refreshes by itself).
  // A claim fans out to every endpoint of the game: other journeys of this worker may have added their own.
  const row = page.locator(`[data-testid="delivery"][data-message-id="${event.id}"]`).filter({ hasText: receiver.url });
  await expect(row.getByTestId("delivery-status")).toHaveText("Delivered", { timeout: 20_000 });
  await expect(row).toContainText(`10 Trust points to ${player}`);
  await expect(row.getByTestId("delivery-answer")).toHaveText(/^HTTP 200 in \d+ ms$/);
  await expect(page.getByTestId("dead-letters")).toHaveText("0");

  // The same event in the ledger feed, for a game server that pulls.
  const feed = (await (await request.get(`${offersUrl}/v1/rewards/events?limit=500`, { headers: serverHeaders })).json()) as { events: Array<{ id: string }> };
  expect(feed.events.map((e) => e.id)).toContain(event.id);

  // The endpoint is deleted after a confirmation: it leaves the list.
  await endpoint.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm).toContainText(`${receiver.url} stops receiving events`);
  await confirm.getByRole("button", { name: "Delete endpoint" }).click();
  await expect(page.getByText(`${receiver.url} was deleted.`)).toBeVisible();
  await expect(endpoint).toHaveCount(0);
});

test("the delivery log follows a failing delivery, and after a replay shows the receiver's new answer, latest attempt first", async ({ page, request, offersUrl }) => {
  const hooks = await startReceiver();
  try {
    hooks.behave(() => 500);
    const created = await request.post(`${offersUrl}/v1/webhooks/endpoints`, { headers: serverHeaders, data: { url: hooks.url, description: "flaky game server" } });
    expect(created.status()).toBe(200);
    const { endpointId } = (await created.json()) as { endpointId: string };

    await signInAs(page, "lina", `/live-ops/${GAME}/webhooks`);
    const endpoint = page.locator(`[data-testid="webhook-endpoint"][data-endpoint-id="${endpointId}"]`);
    await endpoint.getByRole("button", { name: "Send test event" }).click();
    const queued = page.getByText(/^Test event \S+ queued for/);
    await expect(queued).toBeVisible();
    const messageId = /^Test event (\S+) queued/.exec((await queued.textContent()) ?? "")![1]!;
    const row = page.locator(`[data-testid="delivery"][data-message-id="${messageId}"]`);

    // The receiver answers 500 at once and at the retry 5 s later: the log shows each answer as it lands.
    await expect(row.getByTestId("delivery-attempts")).toHaveText("2", { timeout: 30_000 });
    await expect(row.getByTestId("delivery-answer")).toHaveText(/^HTTP 500 in \d+ ms/);

    // Fixed on the game server's side; the replay is followed until the new answer shows.
    hooks.behave(() => 200);
    await row.getByRole("button", { name: "Replay" }).click();
    await expect(row.getByTestId("delivery-status")).toHaveText("Delivered");
    await expect(row.getByTestId("delivery-answer")).toHaveText(/^HTTP 200 in \d+ ms$/);
    await row.getByTestId("delivery-attempts").click();
    const attempts = row.locator("details ol li");
    await expect(attempts).toHaveCount(3);
    await expect(attempts.first()).toContainText("HTTP 200");
    expect((await request.delete(`${offersUrl}/v1/webhooks/endpoints/${endpointId}`, { headers: serverHeaders })).status()).toBe(200);
  } finally {
    await hooks.close();
  }
});

test("someone else changed the endpoint first: the page says so, shows their change, and the retry goes through", async ({ page, request, offersUrl }) => {
  const url = `https://hooks.example.com/race-${Date.now().toString(36)}`;
  const created = await request.post(`${offersUrl}/v1/webhooks/endpoints`, { headers: serverHeaders, data: { url, description: "as added" } });
  expect(created.status()).toBe(200);
  const { endpointId, etag } = (await created.json()) as { endpointId: string; etag: string };

  await signInAs(page, "lina", `/live-ops/${GAME}/webhooks`);
  const row = page.locator(`[data-testid="webhook-endpoint"][data-endpoint-id="${endpointId}"]`);
  await expect(row.getByTestId("endpoint-status")).toHaveText("Enabled");

  // The game server changes it while the page is open.
  expect((await request.patch(`${offersUrl}/v1/webhooks/endpoints/${endpointId}`, { headers: { ...serverHeaders, "If-Match": etag }, data: { description: "changed by the game server" } })).status()).toBe(200);

  await row.getByRole("button", { name: "Disable" }).click();
  await expect(page.getByText("Someone changed this endpoint since you opened the page; the list now shows their change. Try again if you still want to.")).toBeVisible();
  await expect(row).toContainText("changed by the game server");
  await expect(row.getByTestId("endpoint-status")).toHaveText("Enabled");
  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row.getByTestId("endpoint-status")).toHaveText("Disabled");
  expect((await request.delete(`${offersUrl}/v1/webhooks/endpoints/${endpointId}`, { headers: serverHeaders })).status()).toBe(200);
});

test("someone without the liveops role is told so", async ({ page }) => {
  await signInAs(page, "sam", `/live-ops/${GAME}/webhooks`);
  await expect(page.getByTestId("liveops-role-needed")).toBeVisible();
});
