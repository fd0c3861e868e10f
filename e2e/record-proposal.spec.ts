import { expect, expectAccessible, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// Record edits follow the rule of config edits: an engineer who does not own design-system gets
// "Propose change", which opens a merge request and leaves the record as it is (the API answers 202) until
// an owner of it (config/components/design-system.yaml) merges it; the owner gets "Save and commit".

test("a non-owner proposes a record change; an owner merges it, sees the stale twin conflict, and commits one", async ({ page, browser }) => {
  // Two people, a dozen page loads.
  test.setTimeout(240_000);
  const engineer = `eng${Date.now().toString(36)}`;
  await signInAs(page, engineer, "/catalog/design-system");
  const title = page.getByTestId("component-title");
  const before = (await title.textContent()) ?? "";
  await page.getByTestId("edit-component").click();
  await expect(page.getByTestId("field-displayName")).toBeVisible();
  await page.getByTestId("field-displayName").fill(`${before} (proposed)`);
  await page.getByTestId("review-changes").click();
  await expect(page.getByTestId("proposal-note")).toContainText("You do not own design-system");
  await expect(page.getByRole("button", { name: "Save and commit" })).toHaveCount(0);
  await page.getByRole("button", { name: "Propose change" }).click();
  const proposed = page.getByTestId("proposed");
  await expect(proposed).toContainText("Proposed in merge request !");
  await expect(title).toHaveText(before);
  const link = proposed.getByRole("link", { name: /Review merge request !\d+/ });
  const reviewPath = (await link.getAttribute("href")) ?? "";
  await link.click();
  await expect(page.getByTestId("review-diff")).toContainText("(proposed)");
  await expectAccessible(page, "a proposal's diff");
  // Still unchanged in the catalog after a reload.
  await page.goto("/catalog/design-system");
  await expect(title).toHaveText(before);

  // The API says the same to the same user: 202 with the merge request.
  const res = await page.request.patch("/api/components/design-system", {
    headers: { "If-Match": "*", Origin: new URL(page.url()).origin },
    data: { metadata: { displayName: `${before} (api)` } },
  });
  expect(res.status()).toBe(202);
  const body = await res.json();
  expect(body.reviewUrl).toBe(`/reviews/${body.mergeRequest.iid}`);

  // An owner merges the first proposal from its review page: the catalog shows the new name at once.
  const owner = await browser.newPage();
  const ownerId = await (async () => {
    const r = await page.request.get("/api/components/design-system");
    return ((await r.json()).component.spec.owners[0] as { user: string }).user;
  })();
  await signInAs(owner, ownerId, "/reviews");
  await openPage(owner, reviewPath);
  await owner.getByRole("button", { name: "Merge" }).click();
  await expect(owner.getByTestId("review-outcome")).toContainText("Merged !");
  await owner.goto("/catalog/design-system");
  await expect(owner.getByTestId("component-title")).toHaveText(`${before} (proposed)`);
  // The second proposal (through the API) was built on the old record: it now conflicts and cannot be merged.
  await owner.goto(body.reviewUrl);
  await expect(owner.getByTestId("review-conflicts")).toBeVisible();
  await expect(owner.getByRole("button", { name: "Merge" })).toBeDisabled();

  // The owner commits an edit of their own.
  await openPage(owner, "/catalog/design-system");
  await owner.getByTestId("edit-component").click();
  await expect(owner.getByTestId("field-displayName")).toBeVisible();
  await owner.getByTestId("field-displayName").fill(`${before} v2`);
  await expect(owner.getByTestId("review-changes")).toBeEnabled();
  await owner.getByTestId("review-changes").click();
  await expect(owner.getByTestId("proposal-note")).toHaveCount(0);
  await owner.getByRole("button", { name: "Save and commit" }).click();
  await expect(owner.getByText("Saved and committed.")).toBeVisible();
  await expect(owner.getByTestId("component-title")).toHaveText(`${before} v2`);
  await owner.close();
});
