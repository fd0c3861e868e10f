import { expect, expectAccessible, test } from "./fixtures";

// The check every journey runs (fixtures.ts) fails, and says where: on a page with a known violation it
// names the rule, its help, the node's selector and what to fix. Served by the test itself, no portal.
test("the axe check names the rule, the selector and the fix of a violation", async ({ page }) => {
  await page.route("http://axe-check.invalid/", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: '<!doctype html><html lang="en"><head><title>Check</title></head><body><main><p>Text</p><img id="no-alt" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></body></html>',
    }),
  );
  await page.goto("http://axe-check.invalid/");
  const failure = await expectAccessible(page, "a page with an image without text").then(
    () => null,
    (error: unknown) => String(error),
  );
  expect(failure).toContain("axe (wcag2a, wcag2aa, wcag21a, wcag21aa) on a page with an image without text: /");
  expect(failure).toContain("image-alt (critical): Images must have alternative text");
  expect(failure).toContain("#no-alt");
  expect(failure).toContain("Element does not have an alt attribute");
  // The check at the end of a test looks at every page still open: this one has done its part.
  await page.close();
});
