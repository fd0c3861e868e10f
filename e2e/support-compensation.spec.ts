// Journey: support compensates a player from the player page. Below the game's threshold the grant is
// immediate: it shows in the player's ledger and the game server's webhook receiver (verifying with
// the standardwebhooks package) gets a reward.granted event with source support and who granted it.
// Above the threshold it waits; the requester cannot decide it, a lead approves it from the approvals
// queue, and only then does the game server receive it, with who approved it.
import type { Page } from "@playwright/test";
import { startReceiver, type Receiver } from "../test-support/offers/delivery";
import { API_KEY, GAME } from "./demo-game";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
/** The offers admin token the journeys' servers run with (scripts/e2e-server.mjs). */
const adminHeaders = { authorization: "Bearer e2e-offers-admin-token-0123456789" };

interface GrantedEvent {
  id: string;
  type: string;
  data: { playerId: string; kind: string; instanceId: string; source: string; actor?: string; approvedBy?: string; reason?: string; rewards: Array<{ rewardId: string; amount: number }> };
}

/** How much wider than the screen the page is, at a 390 px phone's width (then back to the default). */
async function overflowAtPhoneWidth(page: Page): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (before) await page.setViewportSize(before);
  return overflow;
}

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test("support grants below the threshold at once; above it a lead approves, and the game server receives each grant once, signed", async ({ page, browser, request, offersUrl }) => {
  const player = `compensated-${Date.now().toString(36)}`;
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId: player, username: "Quill" } })).status()).toBe(200);
  const endpoint = await request.post(`${offersUrl}/v1/webhooks/endpoints`, { headers: serverHeaders, data: { url: receiver.url, description: "compensation receiver" } });
  expect(endpoint.status()).toBe(200);
  const { endpointId, secret } = (await endpoint.json()) as { endpointId: string; secret: string };
  receiver.secret = secret;
  const thresholds = await request.put(`${offersUrl}/v1/admin/games/${GAME}/support-thresholds`, { headers: adminHeaders, data: { rules: [{ kind: "coins", approvalAbove: 1000 }] } });
  expect(thresholds.status()).toBe(200);
  const grantsOf = () =>
    receiver.received.map((r) => r.verified as GrantedEvent | null).filter((e): e is GrantedEvent => e !== null && e.data.playerId === player && e.data.source === "support");

  try {
    // Below the threshold: granted at once.
    await signInAs(page, "sam", `/offers/${GAME}/${player}`);
    await page.getByTestId("grant-compensation").click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Reward id").fill("gold");
    await dialog.getByLabel("Amount").fill("500");
    await dialog.getByLabel("Reason").fill("Lost coins in the login outage");
    await dialog.getByTestId("grant-submit").click();
    await expect(page.getByTestId("grant-outcome")).toHaveText("Granted 500 Gold. The game server receives it by webhook.");
    await expect(page.getByTestId("ledger")).toContainText("Support grant");
    await expect.poll(() => grantsOf().length, { timeout: 20_000 }).toBe(1);
    expect(grantsOf()[0]).toMatchObject({ type: "reward.granted", data: { kind: "support", source: "support", actor: "sam", reason: "Lost coins in the login outage", rewards: [{ rewardId: "gold", amount: 500 }] } });

    // Above the threshold: it waits, and the requester cannot decide it.
    await page.getByTestId("grant-compensation").click();
    await dialog.getByLabel("Reward id").fill("gold");
    await dialog.getByLabel("Amount").fill("5000");
    await dialog.getByLabel("Reason").fill("Charged twice for the gold pack");
    await dialog.getByTestId("grant-submit").click();
    await expect(page.getByTestId("grant-outcome")).toContainText("5,000 Gold waits for approval");
    const mine = page.getByTestId("support-grants");
    await expect(mine).toContainText("Waits for approval");
    await expect(mine).toContainText("Someone else decides");
    await expect(mine.getByTestId("grant-approve")).toHaveCount(0);
    expect(await overflowAtPhoneWidth(page), "the player page with its support grants at 390 px").toBeLessThanOrEqual(1);

    // A lead approves it from the queue.
    const lead = await (await browser.newContext()).newPage();
    await signInAs(lead, "lee", `/offers/approvals?game=${GAME}`);
    const queue = lead.getByTestId("pending-approvals");
    const row = queue.locator("tr", { hasText: player });
    await expect(row).toContainText("Charged twice for the gold pack");
    await expect(queue.getByTestId("pending-grants-badge")).toBeVisible();
    // The threshold that stopped the grant, in words, where the lead can change it.
    await expect(lead.getByTestId("thresholds-list")).toHaveText("Coins above 1,000 wait for approval.");
    await expect(lead.getByTestId("thresholds-edit")).toBeVisible();
    expect(await overflowAtPhoneWidth(lead), "the approvals queue at 390 px").toBeLessThanOrEqual(1);
    await row.getByTestId("grant-approve").click();
    const approve = lead.getByRole("dialog");
    await expect(approve).toContainText("sam asks to grant 5,000 Gold");
    await approve.getByLabel("Note (optional)").fill("Payment log shows the double charge");
    await approve.getByTestId("grant-approve-submit").click();
    await expect(queue.locator("tr", { hasText: player })).toHaveCount(0);

    await expect.poll(() => grantsOf().length, { timeout: 20_000 }).toBe(2);
    expect(grantsOf()[1]).toMatchObject({ data: { actor: "sam", approvedBy: "lee", reason: "Charged twice for the gold pack", rewards: [{ rewardId: "gold", amount: 5000 }] } });
    await page.reload();
    await expect(page.getByTestId("support-grants")).not.toContainText("Waits for approval");
    await expect(page.getByTestId("support-grants")).toContainText("by lee: Payment log shows the double charge");
  } finally {
    await request.put(`${offersUrl}/v1/admin/games/${GAME}/support-thresholds`, { headers: adminHeaders, data: { rules: [] } });
    await request.delete(`${offersUrl}/v1/webhooks/endpoints/${endpointId}`, { headers: serverHeaders });
  }
});
