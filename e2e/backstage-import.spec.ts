import { expect, expectAccessible, hydrated, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An operator imports a repository described for Backstage (growth/loyalty, lib/scm/demo.ts: a catalog-info.yaml
// with a service, its APIs, system and group, a Location naming the web app's file, a Resource) with the import
// wizard: the review shows a record per Component and what did not map, field by field; the import opens one merge
// request (even for an operator), whose description carries that report. Nothing is merged: the catalog keeps
// its records for the other journeys of the worker.

const overflow = (page: import("@playwright/test").Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test("operator: import a Backstage repository, read what did not map, open the merge request", async ({ page }) => {
  await signInAs(page, "olga", "/import");
  await page.getByTestId("format-backstage").click();
  await expect(page.getByTestId("format-backstage")).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("import-mode")).toContainText("one merge request is opened, for everyone");

  await page.getByTestId("owner-growth").click();
  await page.getByTestId("repository-search").fill("loyalty");
  await page.getByRole("checkbox", { name: "growth/loyalty" }).check();
  await page.getByTestId("review-import").click();

  // The review: a record per Component (the second read through the Location), with its relations and owners.
  const service = page.getByTestId("review-loyalty-points");
  await expect(service).toContainText("component:default/loyalty-points");
  await expect(service).toContainText("Owners: bob.nguyen (growth/loyalty-team), alice.martin (growth/loyalty-team)");
  await expect(service).toContainText("System: loyalty");
  await expect(service).toContainText("Depends on: checkout-api");
  await expect(service).toContainText("Provides: loyalty-points-api (openapi, api/openapi.yaml)");
  await expect(page.getByTestId("review-loyalty-web")).toContainText("Depends on: loyalty-points");

  // What did not map, per entity and field, in words, before anything is written.
  const report = page.getByTestId("import-unmapped");
  const row = (entity: string, field: string) => report.getByRole("row").filter({ hasText: entity }).filter({ hasText: field });
  await expect(row("api:default/loyalty-events", "spec.definition")).toContainText("the definition is inline");
  await expect(row("resource:default/loyalty-db", "kind")).toContainText("kind Resource is not imported");
  await expect(row("component:default/loyalty-points", "spec.dependsOn[1]")).toContainText("is a resource");
  await expect(row("component:default/loyalty-points", "metadata.annotations.backstage.io/techdocs-ref")).toContainText("not kept");
  await expectAccessible(page, "the Backstage review");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflow(page), "the Backstage review at 390 px is wider than the screen").toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1440, height: 900 });

  // One merge request, for an operator too; its page carries the report.
  const start = page.getByTestId("start-import");
  await expect(start).toHaveText("Open the merge request (2 components)");
  await start.click();
  const summary = page.getByTestId("import-summary");
  await expect(summary).toContainText("Merge request !");
  await expect(summary).toContainText("Its description lists what did not map from Backstage");
  await expect(page.getByTestId("result-loyalty-points")).toContainText("proposed");
  await expect(page.getByTestId("result-loyalty-web")).toContainText("proposed");
  await expectAccessible(page, "the Backstage import's result");
  await page.getByTestId("open-merge-request").click();
  await expect(page).toHaveURL(/\/reviews\/\d+$/);
  await hydrated(page);
  await expect(page.getByText("Not mapped from Backstage", { exact: false })).toBeVisible();
  await expect(page.getByText("components/loyalty-points.yaml").first()).toBeVisible();
  await expect(page.getByText("components/loyalty-web.yaml").first()).toBeVisible();
});
