import { expect, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An owner of offers-service (carla.rossi, config/components/offers-service.yaml) searches, filters,
// stars it, opens it, edits its display name (reviewing the YAML diff, committed since she owns it), and
// finds it changed in the list. Runs on the shipped demo catalog (config/components).
test("catalog: search, filter, star, open, edit display name, see it in the list", async ({ page }) => {
  const user = "carla.rossi";
  const mark = `r${Date.now().toString(36)}`;
  await signInAs(page, user, "/catalog");
  await expect(page.getByTestId("catalog-list")).toBeVisible();

  // "/" focuses the search box; searching narrows the list on the server.
  await page.locator("h1").click();
  await page.keyboard.press("/");
  await expect(page.getByTestId("catalog-search")).toBeFocused();
  await page.keyboard.type("offers");
  await expect(page.getByTestId("row-offers-service")).toBeVisible();
  await expect(page.getByTestId("row-checkout-api")).toHaveCount(0);
  await expect(page).toHaveURL(/q=offers/);

  // A filter chip: services only.
  await page.getByTestId("chip-kind-service").click();
  await expect(page.getByTestId("row-offers-sdk-js")).toHaveCount(0);
  await expect(page.getByTestId("row-offers-service")).toBeVisible();
  await expect(page.getByTestId("catalog-counts")).toContainText("1 of");

  // Star it; the favorites toggle then lists it.
  await page.getByTestId("star-offers-service").click();
  await expect(page.getByTestId("star-offers-service")).toHaveAttribute("aria-pressed", "true");
  await page.getByTestId("catalog-search").fill("");
  await page.getByTestId("chip-kind-service").click();
  await page.getByTestId("favorites-toggle").click();
  await expect(page.getByTestId("catalog-list").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("row-offers-service")).toBeVisible();

  // Open it and edit the display name; the form validates as you type.
  await page.getByTestId("link-offers-service").click();
  await expect(page).toHaveURL(/\/catalog\/offers-service$/);
  await expect(page.getByTestId("component-title")).toHaveText("Offers Service");
  await expect(page.getByTestId("star-offers-service")).toHaveAttribute("aria-pressed", "true");
  const field = page.getByTestId("field-displayName");
  await page.getByTestId("edit-component").click();
  await expect(field).toBeVisible();
  await field.fill("");
  await expect(page.getByTestId("edit-issues")).toContainText("Display name must not be empty");
  // Reviewing with a problem left moves focus to the field that has it.
  await page.getByTestId("review-changes").click();
  await expect(field).toBeFocused();
  await expect(page.getByTestId("yaml-diff")).toHaveCount(0);
  const newName = `Offers Service ${mark}`;
  await field.fill(newName);
  await page.getByTestId("review-changes").click();
  await expect(page.getByTestId("yaml-diff")).toContainText(`+   displayName: "${newName}"`);
  await expect(page.getByTestId("yaml-diff")).toContainText(/- {3}displayName: "?Offers Service/);
  await page.getByTestId("save-component").click();
  await expect(page.getByText("Saved and committed.")).toBeVisible();
  await expect(page.getByTestId("component-title")).toHaveText(newName);

  // Back in the list, the new name shows (and is searchable).
  await openPage(page, "/catalog");
  await page.getByTestId("catalog-search").fill(mark);
  await expect(page.getByTestId("link-offers-service")).toHaveText(newName);
  await expect(page.getByTestId("catalog-list").locator("tbody tr")).toHaveCount(1);
});

test("catalog API: sign-in required, names checked, stale ETag refused", async ({ playwright, portalUrl }) => {
  const api = await playwright.request.newContext({ baseURL: portalUrl });
  expect((await api.get("/api/components")).status()).toBe(401);
  const auth = { Authorization: `Bearer ${process.env.PORTAL_DEV_TOKEN ?? "e2e-admin-token-0123456789"}` };
  const index = await api.get("/api", { headers: auth });
  expect(index.status()).toBe(200);
  const body = await index.json();
  expect(Object.keys(body)).toEqual(["service", "configDir", "endpoints", "components", "errors"]);
  expect(body.components.length).toBeGreaterThanOrEqual(25);
  expect((await api.get("/api/components/a%2Fb", { headers: auth })).status()).toBe(400);
  expect((await api.get("/api/components/no-such-component", { headers: auth })).status()).toBe(404);
  const stale = await api.patch("/api/components/inventory", { headers: { ...auth, "If-Match": '"stale"' }, data: { metadata: { displayName: "x" } } });
  expect(stale.status()).toBe(412);
  expect(await stale.json()).toMatchObject({ message: "precondition-failed", etag: stale.headers()["etag"] });
});

// The proxy runs only on paths holding a "%" (proxy.ts's matcher): through the production build, every
// path whose percent-encoding is not UTF-8 still answers 400, JSON under /api and text for pages.
test("a path whose percent-encoding is not UTF-8 answers 400, on API routes and pages", async ({ playwright, portalUrl }) => {
  const api = await playwright.request.newContext({ baseURL: portalUrl });
  const auth = { Authorization: `Bearer ${process.env.PORTAL_DEV_TOKEN ?? "e2e-admin-token-0123456789"}` };
  for (const path of ["/api/components/%ff%fe", "/api/components/offers-service%c0%ae/source", "/api/components/%"]) {
    const answer = await api.get(path, { headers: auth });
    expect(answer.status(), path).toBe(400);
    expect(await answer.json(), path).toMatchObject({ message: "invalid-request" });
  }
  const page = await api.get("/catalog/%ed%a0%80", { headers: auth });
  expect(page.status()).toBe(400);
  expect(await page.text()).toContain("not valid percent-encoding");
  // Decodable ones reach their routes.
  expect((await api.get("/api/components/no%2Dsuch", { headers: auth })).status()).toBe(404);
});

// Portal pages render per request: showing the catalog must not make the server render the pages its
// menu and its rows link to (Next.js prefetches them unless told not to); a page is fetched when followed.
test("showing the catalog asks the server for no page it links to; following a link opens it", async ({ page }) => {
  await signInAs(page, "admin", "/catalog");
  const pageFetches: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).searchParams.has("_rsc")) pageFetches.push(request.url());
  });
  await openPage(page, "/catalog");
  await expect(page.getByTestId("row-checkout-api")).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(pageFetches).toEqual([]);
  await page.getByTestId("row-checkout-api").getByRole("link").first().click();
  await expect(page.getByTestId("component-title")).toBeVisible();
  expect(pageFetches.length).toBeGreaterThan(0);
});
