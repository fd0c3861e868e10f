// A person who double-clicks gets what one click gets: one merge request for "Open merge request" and
// for "Propose change", one send for "Replay", "Committed" (not "Nothing changed") for a bulk config
// change, and the approval dialog stays open after a double-click on "Approve". Each component or
// record here is one no other journey changes.
import type { Page } from "@playwright/test";
import { startReceiver } from "../test-support/offers/delivery";
import { API_KEY, GAME } from "./demo-game";
import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

/** The open merge requests of a component that `author` opened. */
async function openMergeRequestsBy(page: Page, component: string, author: string): Promise<number[]> {
  const res = await page.request.get(`/api/components/${component}/open-merge-requests`);
  expect(res.status()).toBe(200);
  const { mergeRequests } = (await res.json()) as { mergeRequests: Array<{ iid: number; author: string }> };
  return mergeRequests.filter((m) => m.author === author).map((m) => m.iid);
}

/** Counts the page's requests whose URL ends with `suffix`, started and answered. */
function countRequests(page: Page, method: string, suffix: string) {
  const counts = { started: 0, answered: 0 };
  page.on("request", (r) => {
    if (r.method() === method && new URL(r.url()).pathname.endsWith(suffix)) counts.started += 1;
  });
  page.on("requestfinished", (r) => {
    if (r.method() === method && new URL(r.url()).pathname.endsWith(suffix)) counts.answered += 1;
  });
  page.on("requestfailed", (r) => {
    if (r.method() === method && new URL(r.url()).pathname.endsWith(suffix)) counts.answered += 1;
  });
  return counts;
}

test("a double-click on Open merge request opens one merge request", async ({ page }) => {
  const user = `eng${Date.now().toString(36)}`;
  await signInAs(page, user, "/catalog/matchmaking");
  await expect(page.getByTestId("config-tab")).toBeVisible();
  await page.getByTestId("edit-config").click();
  await expect(page.getByTestId("merge-request-note")).toBeVisible();
  await page.getByTestId("add-key").click();
  await page.getByLabel("Key 1", { exact: true }).fill("TWICE_LEVEL");
  await page.getByLabel("Value 1", { exact: true }).fill(user);
  await page.getByTestId("preview-config").click();
  await expect(page.getByTestId("save-config")).toHaveText("Open merge request");
  const proposals = countRequests(page, "POST", "/api/components/matchmaking/config");

  await page.getByTestId("save-config").dblclick();
  await expect(page.getByTestId("config-outcome")).toContainText("Merge request !");
  await expect.poll(() => proposals.answered).toBe(proposals.started);
  expect(await openMergeRequestsBy(page, "matchmaking", user)).toHaveLength(1);
});

test("a double-click on Propose change opens one merge request", async ({ page }) => {
  const user = `eng${Date.now().toString(36)}`;
  await signInAs(page, user, "/catalog/notifications");
  const before = (await page.getByTestId("component-title").textContent()) ?? "";
  await page.getByTestId("edit-component").click();
  await page.getByTestId("field-displayName").fill(`${before} (${user})`);
  await page.getByTestId("review-changes").click();
  const proposals = countRequests(page, "PUT", "/api/components/notifications");

  await page.getByRole("button", { name: "Propose change" }).dblclick();
  await expect(page.getByTestId("proposed")).toContainText("Proposed in merge request !");
  await expect.poll(() => proposals.answered).toBe(proposals.started);
  expect(await openMergeRequestsBy(page, "notifications", user)).toHaveLength(1);
});

test("a double-click on a bulk config commit says Committed, not Nothing changed", async ({ page }) => {
  const key = `TWICE_${Date.now().toString(36).toUpperCase()}`;
  await signInAs(page, "olga", "/catalog/inventory");
  await expect(page.getByTestId("config-tab")).toBeVisible();
  await page.getByTestId("bulk-edit-config").click();
  await page.getByTestId("bulk-add-key").click();
  const row = page.getByTestId("bulk-table").locator("tbody tr").last();
  await row.getByRole("textbox").first().fill(key);
  const cells = row.getByRole("textbox");
  const count = await cells.count();
  for (let i = 1; i < count; i++) await cells.nth(i).fill("twice");
  await page.getByTestId("preview-bulk").click();
  await expect(page.getByTestId("bulk-preview")).toContainText(`+ ${key}: "twice"`);
  const commits = countRequests(page, "POST", "/api/components/inventory/config/bulk");
  const answers: unknown[] = [];
  page.on("response", (r) => {
    if (r.request().method() === "POST" && new URL(r.url()).pathname.endsWith("/config/bulk")) void r.json().then((body: { changed?: boolean }) => answers.push(body.changed));
  });

  await page.getByTestId("save-bulk").dblclick();
  await expect(page.getByTestId("config-outcome")).toContainText("Committed");
  await expect.poll(() => commits.answered).toBe(commits.started);
  // Whichever answer the page shows last, none says "nothing changed".
  await expect.poll(() => answers.length).toBe(commits.started);
  expect(answers).not.toContain(false);
  await expect(page.getByTestId("config-outcome")).toContainText("Committed");
  await expect(page.getByTestId("config-outcome")).not.toContainText("Nothing changed");
  await expect(page.getByTestId(`config-row-${key}`)).toBeVisible();
});

test("a double-click on Replay sends the delivery once more, not twice", async ({ page, request, offersUrl }) => {
  const receiver = await startReceiver();
  const headers = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
  try {
    const created = await request.post(`${offersUrl}/v1/webhooks/endpoints`, { headers, data: { url: receiver.url, description: "double-click replay" } });
    expect(created.status()).toBe(200);
    const { endpointId } = (await created.json()) as { endpointId: string };
    const sent = await request.post(`${offersUrl}/v1/webhooks/endpoints/${endpointId}/test`, { headers, data: {} });
    expect(sent.status()).toBe(200);
    const { messageId } = (await sent.json()) as { messageId: string };
    const sends = () => receiver.received.filter((r) => r.id === messageId).length;
    await expect.poll(sends, { timeout: 20_000 }).toBe(1);

    await signInAs(page, "lina", `/live-ops/${GAME}/webhooks`);
    const delivery = page.locator(`[data-testid="delivery"][data-message-id="${messageId}"]`);
    await expect(delivery.getByTestId("delivery-status")).toHaveText("Delivered", { timeout: 20_000 });
    const replays = countRequests(page, "POST", "/replay");

    await delivery.getByRole("button", { name: "Replay" }).dblclick();
    await expect(page.getByText("queued again with the same webhook-id")).toBeVisible();
    await expect.poll(() => replays.answered).toBe(replays.started);
    await expect.poll(sends, { timeout: 20_000 }).toBe(2);
    // A second send would follow within moments of the first: give it time to show.
    await page.waitForTimeout(3_000);
    expect(sends()).toBe(2);
    expect((await request.delete(`${offersUrl}/v1/webhooks/endpoints/${endpointId}`, { headers })).status()).toBe(200);
  } finally {
    await receiver.close();
  }
});

test("a double-click on Approve opens the approval dialog and leaves it open", async ({ page, browser }) => {
  const suffix = Date.now().toString(36);
  const engineer = `eng${suffix}`;
  const name = `twice-${suffix}`;
  await signInAs(page, engineer, "/app-orders");
  const ordered = await page.request.post("/api/app-order-requests", {
    headers: { Origin: new URL(page.url()).origin },
    data: { name, displayName: "Twice", kind: "service", owners: [{ user: engineer }], environments: ["dev"], repoPath: `commerce/${name}` },
  });
  expect(ordered.status(), await ordered.text()).toBe(201);

  const lead = await (await browser.newContext()).newPage();
  await signInAs(lead, "lee", "/app-orders/queue");
  const item = lead.getByTestId(`queue-order-${name}`);
  await expect(item).toBeVisible();
  await item.getByRole("button", { name: "Approve" }).dblclick();
  const dialog = lead.getByRole("dialog");
  await expect(dialog).toContainText(`Approve ${name}?`);
  await lead.waitForTimeout(1_000);
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Approve and merge" }).dblclick();
  await expect(lead.getByTestId("queue-result")).toContainText(`Approved ${name}`);
});
