import { expect, hydrated, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An engineer reads a component's API docs: from offers-service's Relations card to its OpenAPI definition,
// rendered (swagger-ui) at the default branch, then at the release tag v1.0.0 through the version selector; and an
// API whose repository is not in source control says so. growth/offers-service is a demo repository (lib/scm/demo.ts):
// v1.0.0 has one operation, main adds the claim.

test("engineer: open a component's API docs, at the default branch and at a release tag", async ({ page }) => {
  await signInAs(page, "erin", "/catalog/offers-service");
  await page.getByTestId("relation-provides").getByRole("link", { name: "offers", exact: true }).click();
  await expect(page).toHaveURL(/\/catalog\/offers-service\/apis\/offers$/);
  await hydrated(page);

  const docs = page.getByTestId("api-docs");
  await expect(docs).toHaveAttribute("data-state", "valid");
  await expect(page.getByTestId("api-ref")).toHaveText("main");
  const viewer = page.getByTestId("openapi-viewer");
  await expect(viewer).toContainText("Offers API");
  await expect(viewer).toContainText("/v1/client/offers/{offerId}/claim");
  await expect(viewer).toContainText("/v1/client/campaigns");

  // The version selector: the release tag shows the definition as released, without the claim.
  await page.getByLabel("Version").selectOption("v1.0.0");
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(/\/catalog\/offers-service\/apis\/offers\?ref=v1\.0\.0$/);
  await hydrated(page);
  await expect(page.getByTestId("api-ref")).toHaveText("v1.0.0");
  await expect(viewer).toContainText("/v1/client/campaigns");
  await expect(viewer).not.toContainText("/v1/client/offers/{offerId}/claim");

  // inventory's repository is not among the demo repositories: the page says so instead of rendering.
  await openPage(page, "/catalog/inventory/apis/inventory-events");
  await expect(page.getByTestId("api-docs")).toHaveAttribute("data-state", "missing");
  await expect(page.getByTestId("api-missing")).toContainText("The repository core/inventory does not exist");
});
