import type { Page } from "@playwright/test";
import { expect, hydrated, openPage } from "./fixtures";

/** Signs in with the development sign-in and waits to land on `next`, hydrated. */
export async function signInAs(page: Page, user: string, next: string): Promise<void> {
  await openPage(page, `/auth/dev/login?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("User name").fill(user);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const escaped = next.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(page).toHaveURL(new RegExp(`${escaped}$`));
  await hydrated(page);
  await expect(page.getByTestId("user-name")).toHaveText(user);
}

/** Opens a tab of the component page. */
export async function openTab(page: Page, testId: string): Promise<void> {
  const tab = page.getByTestId(testId);
  await tab.click();
  await expect(tab).toHaveAttribute("aria-selected", "true");
}
