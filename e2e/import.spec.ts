import { expect, expectAccessible, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An operator imports a repository with the wizard (owner → repositories → review → import) and finds
// it in the catalog. growth/quest-engine is a demo repository that is not in the demo catalog; its
// neighbour growth/rewards-dashboard is, so it is marked and cannot be picked.

test("operator: import a repository and find it in the catalog", async ({ page }) => {
  await signInAs(page, "olga", "/import");
  await expect(page.getByRole("heading", { name: "Import repositories" })).toBeVisible();
  await expect(page.getByTestId("import-wizard")).toContainText("committed to the config repository");

  // 1. Owner.
  await page.getByTestId("owner-growth").click();

  // 2. Repositories: the one already in the catalog is marked and disabled; search narrows the list.
  const known = page.getByTestId("repo-growth/rewards-dashboard");
  await expect(known).toContainText("in catalog");
  await expect(known.getByRole("checkbox")).toBeDisabled();
  await expect(known.getByRole("link", { name: "rewards-dashboard" })).toBeVisible();
  await expectAccessible(page, "the repositories step");
  await page.getByTestId("repository-search").fill("quest");
  await expect(page.getByTestId("repo-growth/rewards-dashboard")).toHaveCount(0);
  await page.getByRole("checkbox", { name: "growth/quest-engine" }).check();
  await page.getByTestId("review-import").click();

  // 3. Review: the inferred record (a Go service with a Dockerfile); the kind can be changed.
  const review = page.getByTestId("review-growth/quest-engine");
  await expect(review).toContainText("quest-engine");
  await expect(page.getByTestId("kind-growth/quest-engine")).toHaveValue("service");
  await expect(review).toContainText("Environments: dev, staging, production");
  await expect(review).toContainText("Owners: bob.nguyen (growth)");
  await page.getByTestId("kind-growth/quest-engine").selectOption("docs");
  await expect(review).toContainText("Environments: none");
  await expect(review).toContainText("kind set to docs at review (inferred service)");
  await page.getByTestId("kind-growth/quest-engine").selectOption("service");
  await expect(review).toContainText("Environments: dev, staging, production");

  // 4. Import: one result per repository, with a link to the entry.
  await page.getByTestId("start-import").click();
  await expect(page.getByTestId("import-summary")).toContainText("Committed");
  const result = page.getByTestId("result-growth/quest-engine");
  await expect(result).toContainText("imported");
  await result.getByRole("link", { name: "Open quest-engine in the catalog" }).click();
  await expect(page).toHaveURL(/\/catalog\/quest-engine$/);
  await expect(page.getByTestId("component-title")).toHaveText("Quest Engine");
  await expect(page.getByText("growth/quest-engine").first()).toBeVisible();

  // The catalog list finds it.
  await openPage(page, "/catalog");
  await page.getByTestId("catalog-search").fill("quest");
  await expect(page.getByTestId("row-quest-engine")).toBeVisible();

  // Back in the wizard, it is now marked as in the catalog.
  await openPage(page, "/import");
  await page.getByTestId("owner-growth").click();
  await expect(page.getByTestId("repo-growth/quest-engine")).toContainText("in catalog");
  await expect(page.getByRole("checkbox", { name: "growth/quest-engine" })).toBeDisabled();
});
