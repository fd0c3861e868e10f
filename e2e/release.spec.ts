import { expect, test } from "./fixtures";
import { openTab, signInAs } from "./sign-in-as";

// An operator releases a demo component to staging (a new minor version, confirmed in a dialog) and
// sees the new version, then promotes it to production. checkout-api's repository is a demo
// repository (commerce/checkout-api) created at first start; the data directory is fresh every run.

test("operator: release checkout-api to staging, see the new version, promote it to production", async ({ page }) => {
  await signInAs(page, "olga", "/catalog/checkout-api");
  await expect(page.getByTestId("component-title")).toHaveText("Checkout API");

  await openTab(page, "tab-releases");
  await expect(page.getByTestId("current-staging")).toHaveText("nothing released");
  await expect(page.getByTestId("current-production")).toHaveText("nothing released");
  // Nothing in staging yet: nothing to promote.
  await expect(page.getByTestId("promote-production")).toBeDisabled();

  // Release to staging: the dialog shows the version it will tag; major is offered, minor is the default.
  await page.getByTestId("release-staging").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Release checkout-api to staging");
  await expect(page.getByTestId("next-version")).toHaveText("v0.1.0");
  await page.getByTestId("release-type").selectOption("major");
  await expect(page.getByTestId("next-version")).toHaveText("v1.0.0");
  await page.getByTestId("release-type").selectOption("minor");
  await expect(page.getByTestId("next-version")).toHaveText("v0.1.0");
  await page.getByTestId("confirm-release").click();
  await expect(dialog).toBeHidden();

  await expect(page.getByTestId("release-outcome")).toContainText("Released 0.1.0 to staging");
  await expect(page.getByTestId("release-outcome")).toContainText("tag v0.1.0");
  await expect(page.getByTestId("current-staging")).toHaveText("0.1.0");
  const stagingRow = page.getByTestId("history-staging").locator("tbody tr").first();
  await expect(stagingRow).toContainText("0.1.0");
  await expect(stagingRow).toContainText("olga");
  await expect(stagingRow.locator("code")).toHaveText(/^[0-9a-f]{8}$/);
  // The overview's environments table shows the deployed version (status wired to GitOps).
  await expect(page.locator("tr", { hasText: "checkout-api-stg" })).toContainText("0.1.0");

  // A second staging release is the next minor version.
  await page.getByTestId("release-staging").click();
  await expect(page.getByTestId("next-version")).toHaveText("v0.2.0");
  await page.getByTestId("confirm-release").click();
  await expect(page.getByTestId("current-staging")).toHaveText("0.2.0");
  await expect(page.getByTestId("history-staging").locator("tbody tr")).toHaveCount(2);

  // A failing release says why: a source that names nothing.
  await page.getByTestId("release-staging").click();
  await page.getByLabel("Source").fill("no-such-branch");
  await page.getByTestId("confirm-release").click();
  await expect(page.getByTestId("release-error")).toContainText('"no-such-branch" names no branch, tag or commit');
  await expect(page.getByTestId("current-staging")).toHaveText("0.2.0");

  // Promote: the latest staging version by default.
  await page.getByTestId("promote-production").click();
  await expect(page.getByRole("dialog")).toContainText("Promote checkout-api to production");
  await expect(page.getByTestId("promote-version")).toHaveValue("0.2.0");
  await page.getByTestId("confirm-promote").click();
  await expect(page.getByTestId("release-outcome")).toContainText("Promoted 0.2.0 to production");
  await expect(page.getByTestId("current-production")).toHaveText("0.2.0");
  const productionRow = page.getByTestId("history-production").locator("tbody tr").first();
  await expect(productionRow).toContainText("0.2.0");
  await expect(productionRow).toContainText("olga");
  await expect(page.locator("tr", { hasText: "checkout-api-prod" })).toContainText("0.2.0");

  // The version already in production cannot be promoted again; an older one can (a rollback).
  await page.getByTestId("promote-production").click();
  await expect(page.getByTestId("confirm-promote")).toBeDisabled();
  await page.getByTestId("promote-version").selectOption("0.1.0");
  await page.getByTestId("confirm-promote").click();
  await expect(page.getByTestId("current-production")).toHaveText("0.1.0");

  // The server's refusal is shown as an error (promoting what production already runs, via the API's answer).
  const again = await page.request.post("/api/components/checkout-api/releases", { headers: { Origin: new URL(page.url()).origin }, data: { environment: "production", sourceRef: "0.1.0" } });
  expect(again.status()).toBe(409);

  // The open tab is in the address: a reload (or a shared link) opens Releases, history intact.
  await expect(page).toHaveURL(/\/catalog\/checkout-api\?tab=releases$/);
  await page.reload();
  await expect(page.getByTestId("tab-releases")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByTestId("history-production").locator("tbody tr")).toHaveCount(2);
  await expect(page.getByTestId("current-staging")).toHaveText("0.2.0");
});

test("an engineer sees the releases but no release buttons, and the API refuses them", async ({ page }) => {
  await signInAs(page, `eng${Date.now().toString(36)}`, "/catalog/checkout-api");
  await openTab(page, "tab-releases");
  await expect(page.getByTestId("releases-tab")).toContainText("Operators release and promote.");
  await expect(page.getByTestId("release-staging")).toHaveCount(0);
  await expect(page.getByTestId("promote-production")).toHaveCount(0);
  const refused = await page.request.post("/api/components/checkout-api/releases", { headers: { Origin: new URL(page.url()).origin }, data: { environment: "staging" } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ message: "forbidden", requiredRole: "operator" });
});
