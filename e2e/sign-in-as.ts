import type { Page } from "@playwright/test";
import { expect, expectAccessible, hydrated, openPage } from "./fixtures";

/** Signs in with the development sign-in and waits to land on `next`, hydrated. */
export async function signInAs(page: Page, user: string, next: string): Promise<void> {
  await openPage(page, `/auth/dev/login?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("User name").fill(user);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  // The page may add parameters of its own once hydrated (the offers page writes the game it picked):
  // landing means the path of `next` with every parameter it asked for.
  const target = new URL(next, "http://portal.invalid");
  await expect(page).toHaveURL(
    (url) => url.pathname === target.pathname && [...target.searchParams].every(([key, value]) => url.searchParams.get(key) === value),
  );
  await hydrated(page);
  await expect(page.getByTestId("user-name")).toHaveText(user);
}

/** Opens a tab of the component page, and checks it with axe. */
export async function openTab(page: Page, testId: string): Promise<void> {
  const tab = page.getByTestId(testId);
  await tab.click();
  await expect(tab).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page, `tab ${testId}`);
}
