import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An engineer orders an app; a lead (lee) sees the badge in the navigation turn to 1 without a reload,
// approves, and the component is in the catalog. A second order is rejected and the requester sees why.


async function newUserPage(browser: Browser, user: string, next: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInAs(page, user, next);
  return page;
}

async function orderApp(page: Page, name: string, displayName: string) {
  await openPage(page, "/app-orders/new");
  const nameField = page.getByTestId("order-name");
  await nameField.fill("Not Valid");
  await expect(page.getByText("name must be lowercase letters, digits and hyphens", { exact: false })).toBeVisible();
  await nameField.fill(name);
  await expect(page.getByText("name must be lowercase letters", { exact: false })).toHaveCount(0);
  await page.getByTestId("order-displayName").fill(displayName);
  await page.getByTestId("order-repoPath").fill("nogroup");
  await expect(page.getByText("repository path must have the form <group>/<project>")).toBeVisible();
  await page.getByTestId("order-repoPath").fill(`commerce/${name}`);
  await expect(page.getByTestId("order-preview")).toContainText(`name: ${name}`);
  await page.getByTestId("order-next").click();
  await page.getByLabel("MongoDB").check();
  await expect(page.getByTestId("order-preview")).toContainText("mongo: true");
  await page.getByTestId("order-next").click();
  await expect(page.getByTestId("order-resources")).toContainText("MongoDB in dev");
  await page.getByTestId("order-submit").click();
  await expect(page.getByTestId("order-created")).toContainText(name);
}

test("app orders: order, badge, approve into the catalog; reject with a reason the requester sees", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const suffix = Date.now().toString(36);
  const engineer = `eng${suffix}`;
  const approved = `ledger-${suffix}`;
  const rejected = `shadow-${suffix}`;

  // The lead is looking at the catalog: no badge yet.
  const lead = await newUserPage(browser, "lee", "/catalog");
  const nav = lead.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: /App orders/ })).toBeVisible();
  await expect(lead.getByTestId("pending-orders-badge")).toHaveCount(0);

  // The engineer orders an app (validation as you type, YAML preview) and sees it waiting.
  await signInAs(page, engineer, "/app-orders");
  await orderApp(page, approved, "Ledger");
  await page.goto("/app-orders");
  await expect(page.getByTestId(`order-status-${approved}`)).toHaveText("waiting for a lead");

  // The lead's badge turns to 1 without a reload (polled).
  await expect(lead.getByTestId("pending-orders-badge")).toHaveText("1", { timeout: 30_000 });

  // Approve from the queue: the component is in the catalog.
  await nav.getByRole("link", { name: /App orders/ }).click();
  await lead.getByTestId("open-queue").click();
  await expect(lead).toHaveURL(/\/app-orders\/queue$/);
  const item = lead.getByTestId(`queue-order-${approved}`);
  await expect(item).toContainText(engineer);
  await expectAccessible(lead, "the leads' queue");
  await item.getByRole("button", { name: "Approve" }).click();
  await expect(lead.getByRole("dialog")).toBeVisible();
  await expectAccessible(lead, "the approve dialog");
  await lead.getByRole("dialog").getByRole("button", { name: "Approve and merge" }).click();
  await expect(lead.getByTestId("queue-result")).toContainText(`Approved ${approved}`);
  await expect(lead.getByTestId("pending-orders-badge")).toHaveCount(0, { timeout: 30_000 });
  await lead.goto(`/catalog/${approved}`);
  await expect(lead.getByTestId("component-title")).toHaveText("Ledger");
  await expect(lead.getByTestId("history-panel")).toContainText("order.approve");

  await page.reload();
  await expect(page.getByTestId(`order-status-${approved}`)).toHaveText("approved");

  // A second order is rejected: the reason is required, and the requester sees it.
  await orderApp(page, rejected, "Shadow");
  await openPage(lead, "/app-orders/queue");
  await expect(lead.getByTestId("pending-orders-badge")).toHaveText("1");
  await lead.getByTestId(`queue-order-${rejected}`).getByRole("button", { name: "Reject" }).click();
  const dialog = lead.getByRole("dialog");
  await dialog.getByRole("button", { name: "Reject the order" }).click();
  await expect(dialog.getByText("A reason is required.")).toBeVisible();
  const reason = "We already have a ledger; extend it instead.";
  await dialog.getByLabel("Reason").fill(reason);
  await dialog.getByRole("button", { name: "Reject the order" }).click();
  await expect(lead.getByTestId("queue-result")).toContainText(`Rejected ${rejected}`);
  await expect(lead.getByTestId(`queue-order-${rejected}`)).toHaveCount(0);

  await page.goto("/app-orders");
  await expect(page.getByTestId(`order-status-${rejected}`)).toHaveText("rejected");
  await expect(page.getByTestId(`order-reason-${rejected}`)).toContainText(reason);
  await expect(page.getByTestId(`order-reason-${rejected}`)).toContainText("lee");
  const gone = await page.request.get(`/api/components/${rejected}`);
  expect(gone.status()).toBe(404);

  // The admin's audit log has every step.
  const audit = await page.request.get(`/api/audit?action=order&limit=50`, { headers: { Authorization: "Bearer e2e-admin-token-0123456789" } });
  expect(audit.status()).toBe(200);
  const actions = ((await audit.json()).entries as Array<{ action: string; component: string }>).filter((e) => e.component === approved || e.component === rejected).map((e) => e.action);
  expect(actions.sort()).toEqual(["order.approve", "order.create", "order.create", "order.reject"]);
  await lead.context().close();
});
