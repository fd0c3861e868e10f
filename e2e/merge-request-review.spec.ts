import type { Page } from "@playwright/test";
import { expect, expectAccessible, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An engineer who owns nothing proposes two config changes to rewards-dashboard; its owner
// (carla.rossi, config/components/rewards-dashboard.yaml) finds them under Reviews, reads the diff,
// merges one — the config view shows it at once — and closes the other with a reason, which the
// author then reads on the request's page.

async function proposeStaging(page: Page, key: string, value: string): Promise<number> {
  await openPage(page, "/catalog/rewards-dashboard");
  await page.getByTestId("env-staging").click();
  await expect(page.getByTestId("env-staging")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("edit-config").click();
  await expect(page.getByTestId("merge-request-note")).toBeVisible();
  await page.getByTestId("add-key").click();
  const rows = page.getByLabel(/^Key \d+$/);
  const n = await rows.count();
  await page.getByLabel(`Key ${n}`, { exact: true }).fill(key);
  await page.getByLabel(`Value ${n}`, { exact: true }).fill(value);
  await page.getByTestId("preview-config").click();
  await page.getByTestId("save-config").click();
  const outcome = page.getByTestId("config-outcome");
  await expect(outcome).toContainText("Merge request !");
  return Number(/Merge request !(\d+)/.exec((await outcome.textContent()) ?? "")?.[1]);
}

test("an owner reviews the diff and merges one proposal, closes another with a reason the author reads", async ({ page, browser }) => {
  // Two people, a dozen page loads.
  test.setTimeout(240_000);
  const author = `eng${Date.now().toString(36)}`;
  const key = `REVIEW_${Date.now().toString(36).toUpperCase()}`;
  await signInAs(page, author, "/catalog/rewards-dashboard");
  const merged = await proposeStaging(page, key, "merged-value");
  const closed = await proposeStaging(page, `${key}_B`, "closed-value");
  // The author may not decide: no badge, and the request page offers only to withdraw it.
  await page.goto(`/reviews/${merged}`);
  await expect(page.getByTestId("review-author")).toHaveText(author);
  await expect(page.getByRole("button", { name: "Merge" })).toHaveCount(0);

  const owner = await browser.newPage();
  await signInAs(owner, "carla.rossi", "/reviews");
  await expect(owner.getByTestId("reviews-badge")).toBeVisible();
  const toDecide = owner.getByTestId("reviews-to-decide");
  await expect(toDecide.getByTestId(`review-${merged}`)).toContainText(`by ${author}`);
  await expect(toDecide.getByTestId(`review-${closed}`)).toBeVisible();

  // The diff of the first: the added line, in config/rewards-dashboard/staging.yaml.
  await toDecide.getByTestId(`review-${merged}`).getByRole("link").click();
  await expect(owner).toHaveURL(new RegExp(`/reviews/${merged}$`));
  const diff = owner.getByTestId("review-diff");
  await expect(diff).toContainText("config/rewards-dashboard/staging.yaml");
  await expect(diff.locator('[data-kind="add"]').filter({ hasText: key })).toContainText("merged-value");
  await expectAccessible(owner, "a merge request's diff");
  await expect(owner.getByTestId("review-status")).toHaveText("open, merges cleanly");
  await owner.getByRole("button", { name: "Approve" }).click();
  await expect(owner.getByTestId("review-approvals")).toContainText("carla.rossi");
  await owner.getByRole("button", { name: "Merge" }).click();
  await expect(owner.getByTestId("review-outcome")).toContainText(`Merged !${merged}`);
  await expect(owner.getByTestId("review-status")).toHaveText("merged by carla.rossi");

  // The config view shows the merged value at once.
  await openPage(owner, "/catalog/rewards-dashboard");
  await owner.getByTestId("env-staging").click();
  await expect(owner.getByTestId("config-tab")).toContainText(key);
  await expect(owner.getByTestId("config-tab")).toContainText("merged-value");

  // The second proposal now conflicts? No: another key. It is closed with a reason.
  await openPage(owner, `/reviews/${closed}`);
  await owner.getByRole("button", { name: "Close…" }).click();
  const dialog = owner.getByRole("dialog");
  await dialog.getByRole("button", { name: "Close the merge request" }).click();
  await expect(dialog).toContainText("say why the request is closed");
  await dialog.getByLabel("Reason").fill("Staging reads this from the shared settings; no per-app key needed.");
  await dialog.getByRole("button", { name: "Close the merge request" }).click();
  await expect(owner.getByTestId("review-close-reason")).toHaveText("Staging reads this from the shared settings; no per-app key needed.");
  await owner.close();

  // The author sees both outcomes, and why the second was closed.
  await openPage(page, "/reviews");
  const mine = page.getByTestId("reviews-mine");
  await expect(mine.getByTestId(`review-${merged}`)).toContainText("merged");
  await expect(mine.getByTestId(`review-${closed}`)).toContainText("closed by carla.rossi");
  await mine.getByTestId(`review-${closed}`).getByRole("link").click();
  await expect(page.getByTestId("review-close-reason")).toHaveText("Staging reads this from the shared settings; no per-app key needed.");
});

test("a request closed elsewhere: the tab left open says so when its Merge is refused, and shows it closed", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const author = `eng${Date.now().toString(36)}`;
  const key = `STALE_${Date.now().toString(36).toUpperCase()}`;
  await signInAs(page, author, "/catalog/rewards-dashboard");
  const id = await proposeStaging(page, key, "stale-value");

  // The owner opens it and leaves the tab open.
  const owner = await browser.newPage();
  await signInAs(owner, "carla.rossi", `/reviews/${id}`);
  await expect(owner.getByTestId("review-status")).toHaveText("open, merges cleanly");

  // Meanwhile the author withdraws it in their own tab.
  await openPage(page, `/reviews/${id}`);
  await page.getByRole("button", { name: "Close…" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Reason").fill("not needed after all");
  await dialog.getByRole("button", { name: "Close the merge request" }).click();
  await expect(page.getByTestId("review-status")).toHaveText("closed");

  // The owner's tab still offers Merge; the server refuses it, and the page shows the request as it is now.
  await owner.getByRole("button", { name: "Merge" }).click();
  await expect(owner.getByTestId("review-changed")).toContainText("It changed since you opened this page");
  await expect(owner.getByTestId("review-status")).toHaveText("closed");
  await expect(owner.getByTestId("review-closed")).toContainText("not needed after all");
  await expect(owner.getByTestId("review-actions")).toHaveCount(0);
  await owner.close();
});
