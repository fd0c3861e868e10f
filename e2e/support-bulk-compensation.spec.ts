// Journey: support compensates an incident's players in bulk from a CSV. A list past the limit is refused in
// words (it reaches the server whole: larger than the proxy's default buffer). The preview counts the players,
// the total and what is not granted (a repeat, an unknown id, an invalid one); the request waits for a
// second person; a lead approves it from the approvals queue; the job grants every player once, its
// progress reaches 100 %, and the result downloads as CSV with a grant id per player.
import type { Page } from "@playwright/test";
import { API_KEY, GAME } from "./demo-game";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };

/** How much wider than the screen the page is, at a width (a 390 px phone by default; then back to the default). */
async function overflowAtPhoneWidth(page: Page, width = 390): Promise<number> {
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (before) await page.setViewportSize(before);
  return overflow;
}

test("support uploads a CSV, previews it, a lead approves, every player is granted once and the result downloads", async ({ page, browser, request, offersUrl }) => {
  const run = Date.now().toString(36);
  const players = Array.from({ length: 25 }, (_, i) => `incident-${run}-${i}`);
  for (const playerId of players) expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId } })).status()).toBe(200);
  const reason = `Login outage ${run}`;
  const csv = ["playerId", ...players, players[0], `ghost-${run}`, "not an id"].join("\n");

  await signInAs(page, "sam", `/offers/bulk-compensation?game=${GAME}`);
  await page.getByTestId("bulk-reward-id").fill("gold");
  await page.getByTestId("bulk-amount").fill("250");
  await page.getByTestId("bulk-reason").fill(reason);
  await expect(page.getByText("at most 1,000,000 player ids and 32 MB")).toBeVisible();
  // A list past the limit (12 MB, 1,100,000 ids) reaches the server whole and is refused in words.
  const tooMany = Array.from({ length: 1_100_000 }, (_, i) => `p${String(i).padStart(9, "0")}`).join("\n");
  await page.getByTestId("bulk-file").setInputFiles({ name: "huge.csv", mimeType: "text/csv", buffer: Buffer.from(tooMany) });
  await page.getByTestId("bulk-preview").click();
  await expect(page.getByRole("alert").filter({ hasText: "at most 1,000,000 player ids" })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId("bulk-file").setInputFiles({ name: "incident.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByTestId("bulk-ask")).toBeDisabled();
  await page.getByTestId("bulk-preview").click();
  await expect(page.getByTestId("bulk-preview-players")).toHaveText("25");
  await expect(page.getByTestId("bulk-preview-total")).toHaveText("6,250");
  await expect(page.getByTestId("bulk-preview-rejected")).toHaveText("1 repeated ids (counted once) · 1 unknown ids · 1 invalid ids (not granted)");
  expect(await overflowAtPhoneWidth(page), "the compensation page with its preview at 390 px").toBeLessThanOrEqual(1);
  expect(await overflowAtPhoneWidth(page, 1440), "the compensation page with its preview at 1440 px").toBeLessThanOrEqual(1);
  await page.getByTestId("bulk-ask").dblclick();
  const mine = page.getByTestId("bulk-compensations").locator("section", { hasText: reason });
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText("Waits for approval");
  await expect(mine).toContainText("Someone else approves");
  await expect(mine.getByTestId("bulk-job-approve")).toHaveCount(0);

  const lead = await (await browser.newContext()).newPage();
  await signInAs(lead, "lee", `/offers/approvals?game=${GAME}`);
  const queue = lead.getByTestId("pending-bulk-compensations");
  const waiting = queue.locator("section", { hasText: reason });
  await expect(waiting).toContainText("25 players (total 6,250)");
  await expect(queue.getByTestId("pending-bulk-badge")).toBeVisible();
  expect(await overflowAtPhoneWidth(lead), "the approvals queue with a compensation at 390 px").toBeLessThanOrEqual(1);
  await waiting.getByTestId("bulk-job-reason").fill("Incident report confirmed");
  await waiting.getByTestId("bulk-job-approve").click();
  await expect(queue.locator("section", { hasText: reason })).toHaveCount(0);

  await expect(mine.getByTestId("bulk-job-progress")).toHaveText("25 of 25 granted (100%)", { timeout: 30_000 });
  await expect(mine).toContainText("Done");
  await expect(mine).toContainText("approved by lee: Incident report confirmed");
  const download = page.waitForEvent("download");
  await mine.getByTestId("bulk-job-result").click();
  const file = await download;
  const lines = (await (await file.createReadStream()).toArray()).join("").trim().split("\n");
  expect(lines[0]).toBe("playerId,outcome,grantId");
  expect(lines.filter((l) => l.includes(",granted,"))).toHaveLength(25);
  expect(lines).toContain(`ghost-${run},unknown,`);

  // Each player got exactly one grant: one support entry in their ledger.
  const state = await request.get(`${offersUrl}/v1/admin/games/${GAME}/players/${players[0]}`, { headers: { authorization: "Bearer e2e-offers-admin-token-0123456789" } });
  const ledger = ((await state.json()) as { ledger: Array<{ sourceKind: string }> }).ledger.filter((l) => l.sourceKind === "support");
  expect(ledger).toHaveLength(1);
});
