import { expect, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An engineer proposes a config change on a component's Config tab: edits the staging values, reviews
// the preview, saves — which opens a merge request in the config repository — and finds the merge
// request on the Merge requests tab. An operator then sees the same component's drift and commits.

test("engineer: propose a config change and see its merge request", async ({ page }) => {
  const user = `eng${Date.now().toString(36)}`;
  await signInAs(page, user, "/catalog/leaderboards");
  await expect(page.getByTestId("component-title")).toHaveText("Leaderboards");

  // The Config tab: one switch per environment; nothing set yet.
  await expect(page.getByTestId("config-tab")).toBeVisible();
  await expect(page.getByTestId("env-dev")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("env-staging").click();
  await expect(page.getByTestId("env-staging")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("config-tab")).toContainText("No values in either view yet.");
  // Engineers do not get the bulk editor (operators only).
  await expect(page.getByTestId("bulk-edit-config")).toHaveCount(0);

  await page.getByTestId("edit-config").click();
  await expect(page.getByTestId("merge-request-note")).toContainText("will open a merge request");
  await expect(page.getByTestId("merge-request-note")).toContainText("config/leaderboards/staging.yaml");

  await page.getByTestId("add-key").click();
  await page.getByLabel("Key 1", { exact: true }).fill("LOG_LEVEL");
  await page.getByLabel("Value 1", { exact: true }).fill("debug");
  await page.getByTestId("add-key").click();
  await page.getByLabel("Key 2", { exact: true }).fill("WORKERS");
  await page.getByLabel("Type 2", { exact: true }).selectOption("number");
  // A value that is not a number keeps the change from being previewed.
  await page.getByLabel("Value 2", { exact: true }).fill("four");
  await expect(page.getByTestId("config-issues")).toHaveText('The value of "WORKERS" is not a number.');
  await expect(page.getByTestId("preview-config")).toBeDisabled();
  await page.getByLabel("Value 2", { exact: true }).fill("4");
  await expect(page.getByTestId("config-issues")).toHaveCount(0);

  await page.getByTestId("preview-config").click();
  await expect(page.getByTestId("config-preview")).toContainText('+ LOG_LEVEL: "debug"');
  await expect(page.getByTestId("config-preview")).toContainText("+ WORKERS: 4");
  await expect(page.getByTestId("save-config")).toHaveText("Open merge request");
  await page.getByTestId("save-config").click();

  const outcome = page.getByTestId("config-outcome");
  await expect(outcome).toContainText("Merge request !");
  await expect(outcome).toContainText("Config of leaderboards: staging");
  await expect(outcome).toContainText("portal/leaderboards/");
  const iid = /Merge request !(\d+)/.exec((await outcome.textContent()) ?? "")?.[1];
  expect(iid).toBeTruthy();
  // Not merged: the persistent values are unchanged.
  await expect(page.getByTestId("config-tab")).toContainText("No values in either view yet.");

  // The Merge requests tab lists it (config repository, scoped to this component).
  await page.getByTestId("show-merge-requests").click();
  await expect(page.getByTestId("tab-merge-requests")).toHaveAttribute("aria-selected", "true");
  const row = page.getByTestId(`merge-request-config-${iid}`);
  await expect(row).toContainText("Config of leaderboards: staging");
  await expect(row).toContainText(user);
  await expect(row).toContainText("portal/leaderboards/");
  await expect(row).toContainText("portal/config");
  await expect(page.getByTestId("tab-merge-requests")).toContainText("1");

  // The status endpoint counts it too.
  const status = await page.request.get("/api/components/leaderboards/status");
  expect((await status.json()).openMergeRequests).toBe(1);
  // And after a reload the overview says so.
  await page.reload();
  await expect(page.getByText("Open merge requests: 1")).toBeVisible();
});

test("operator: commit a value, change the live value, see the drift, bulk edit across environments", async ({ page }) => {
  await signInAs(page, "olga", "/catalog/store-web");
  await expect(page.getByTestId("config-tab")).toBeVisible();
  const firstEnv = page.getByRole("group", { name: "Environment" }).getByRole("button").first();
  await firstEnv.click();
  const env = ((await firstEnv.textContent()) ?? "").trim();

  // Commit a persistent value.
  await page.getByTestId("edit-config").click();
  await page.getByTestId("add-key").click();
  await page.getByLabel("Key 1", { exact: true }).fill("FEATURE_CART");
  await page.getByLabel("Type 1", { exact: true }).selectOption("boolean");
  await page.getByLabel("Value 1", { exact: true }).selectOption("true");
  await page.getByTestId("preview-config").click();
  await expect(page.getByTestId("config-preview")).toContainText("+ FEATURE_CART: true");
  await expect(page.getByTestId("save-config")).toHaveText("Commit");
  await page.getByTestId("save-config").click();
  await expect(page.getByTestId("config-outcome")).toContainText("Committed");
  // Persistent but not current yet: drift.
  const row = page.getByTestId("config-row-FEATURE_CART");
  await expect(row).toHaveAttribute("data-drift", "true");
  await expect(page.getByTestId(`env-${env}`)).toContainText("drift 1");

  // A live change that matches makes the drift go away.
  await page.getByTestId("edit-config").click();
  await page.getByRole("group", { name: "Change" }).getByRole("button", { name: "current (live now)" }).click();
  await page.getByTestId("add-key").click();
  await page.getByLabel("Key 1", { exact: true }).fill("FEATURE_CART");
  await page.getByLabel("Type 1", { exact: true }).selectOption("boolean");
  await page.getByLabel("Value 1", { exact: true }).selectOption("true");
  await page.getByTestId("preview-config").click();
  await expect(page.getByTestId("save-config")).toHaveText("Apply live");
  await page.getByTestId("save-config").click();
  await expect(page.getByTestId("config-outcome")).toContainText("Live values");
  await expect(row).toHaveAttribute("data-drift", "false");

  // Bulk: one key set in every environment, one commit.
  await page.getByTestId("bulk-edit-config").click();
  await page.getByTestId("bulk-add-key").click();
  const rows = page.getByTestId("bulk-table").locator("tbody tr");
  await rows.last().getByRole("textbox").first().fill("REGION");
  const cells = rows.last().getByRole("textbox");
  const count = await cells.count();
  for (let i = 1; i < count; i++) await cells.nth(i).fill("eu-west");
  await page.getByTestId("preview-bulk").click();
  await expect(page.getByTestId("bulk-preview")).toContainText('+ REGION: "eu-west"');
  await page.getByTestId("save-bulk").click();
  await expect(page.getByTestId("config-outcome")).toContainText("Committed");
  await expect(page.getByTestId("config-row-REGION")).toHaveAttribute("data-drift", "true");

  // Starting from the live values shows what persisting them would change.
  await page.getByTestId("persist-live").click();
  await page.getByTestId("preview-config").click();
  await expect(page.getByTestId("config-preview")).toContainText('- REGION: "eu-west"');
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("config-compare")).toBeVisible();
});
