import { expect, hydrated, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

test("sign in with the development sign-in, see name and roles, sign out", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("signed-out")).toBeVisible();

  await page.getByRole("link", { name: "Sign in" }).first().click();
  await expect(page).toHaveURL(/\/auth\/signin/);
  await page.getByRole("link", { name: "Development sign-in" }).click();
  await expect(page).toHaveURL(/\/auth\/dev\/login/);
  await hydrated(page);

  await page.getByLabel("User name").fill("lee");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  // The shell shows the name; the user menu shows the roles from config/portal.yaml.
  await expect(page.getByTestId("user-name")).toHaveText("lee");
  await hydrated(page);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Catalog", "Reviews", "App orders", "Import"]);
  await page.getByTestId("user-menu").locator("summary").click();
  await expect(page.getByTestId("user-roles")).toContainText("engineer");
  await expect(page.getByTestId("user-roles")).toContainText("lead");

  const session = await page.request.get("/api/auth/session");
  expect(await session.json()).toMatchObject({ user: { id: "lee", name: "lee", roles: ["engineer", "lead"] } });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You are signed out.")).toBeVisible();
  await expect(page.getByTestId("signed-out")).toBeVisible();
  await expect(page.getByTestId("user-name")).toHaveCount(0);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({});
});

test("a group picked at the development sign-in gives its roles", async ({ page }) => {
  await openPage(page, "/auth/dev/login?callbackUrl=%2Ftokens");
  await page.getByLabel("User name").fill("ann");
  await page.getByLabel("platform/operations").check();
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  await page.getByTestId("user-menu").locator("summary").click();
  await expect(page.getByTestId("user-roles")).toHaveText(/engineer\s*operator/);
});

test("personal API token: create, use with Bearer, revoke", async ({ page, playwright, portalUrl }) => {
  await signInAs(page, "olga", "/tokens");
  await page.getByLabel("Name").fill("release script");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^pat_/);
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("tokens")).toContainText("release script");

  const api = await playwright.request.newContext({ baseURL: portalUrl });
  const listed = await api.get("/api/tokens", { headers: { Authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  expect((await listed.json()).tokens.map((t: { name: string }) => t.name)).toContain("release script");
  expect((await api.get("/api/tokens")).status()).toBe(401);

  await page.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText("No tokens yet.")).toBeVisible();
  expect((await api.get("/api/tokens", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);

  // The seeded PORTAL_DEV_TOKEN is admin's.
  const admin = await api.get("/api/tokens", { headers: { Authorization: "Bearer e2e-admin-token-0123456789" } });
  expect(admin.status()).toBe(200);
  await api.dispose();
});

test("portal health and a cross-site mutation refused", async ({ page, playwright, portalUrl }) => {
  const api = await playwright.request.newContext({ baseURL: portalUrl });
  const health = await api.get("/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: "ok" });

  await openPage(page, "/auth/dev/login");
  await page.getByLabel("User name").fill("sam");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-name")).toHaveText("sam");
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");
  const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  const refused = await api.post("/api/tokens", { headers: { Cookie: cookieHeader, Origin: "https://evil.example" }, data: { name: "x" } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toEqual({ message: "cross-site-request", detail: expect.stringContaining("another site") });
  // Neither Origin nor Sec-Fetch-Site: no browser page sends that; a script writes with a token.
  const headerless = await api.post("/api/tokens", { headers: { Cookie: cookieHeader }, data: { name: "x" } });
  expect(headerless.status()).toBe(403);
  expect(await headerless.json()).toMatchObject({ message: "cross-site-request" });
  await api.dispose();
});

test("hostile sign-in input lands on a page of the portal, never a 500", async ({ playwright, portalUrl }) => {
  const api = await playwright.request.newContext({ baseURL: portalUrl });
  // The development sign-in's callback is a form POST: a GET of it goes to the sign-in page.
  const forwarded = await api.get("/auth/dev/callback", { maxRedirects: 0 });
  expect(forwarded.status()).toBe(307);
  const callback = await api.get(forwarded.headers().location!, { maxRedirects: 0 });
  expect(callback.status()).toBe(303);
  expect(callback.headers().location).toBe("/auth/signin");
  // A callbackUrl of another host (backslashes read as slashes by browsers) signs in and lands at home.
  const { csrfToken } = (await (await api.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const signedIn = await api.post("/api/auth/callback/dev", { form: { csrfToken, username: "lee", callbackUrl: "\\\\other-host/x" }, headers: { Origin: portalUrl }, maxRedirects: 0 });
  expect(signedIn.status()).toBe(302);
  expect(signedIn.headers().location).toBe(`${portalUrl}/`);
  expect((await (await api.get("/api/auth/session")).json()).user).toMatchObject({ id: "lee" });
  await api.dispose();
});
