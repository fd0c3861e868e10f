import { expect, type Page } from "@playwright/test";
import { clickUntilTaken, typeUntilTaken } from "./hydration";

/**
 * Signs in with the development sign-in and waits to land on `next`. The name is typed again until
 * the form has hydrated and taken it (a production build hydrates a moment after the page shows).
 */
export async function signInAs(page: Page, user: string, next: string): Promise<void> {
  await page.goto(`/auth/dev/login?callbackUrl=${encodeURIComponent(next)}`);
  const button = page.getByRole("button", { name: "Sign in", exact: true });
  await typeUntilTaken(page.getByLabel("User name"), user, () => expect(button).toBeEnabled({ timeout: 1_000 }));
  await button.click();
  const escaped = next.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(page).toHaveURL(new RegExp(`${escaped}$`));
  await expect(page.getByTestId("user-name")).toHaveText(user);
}

/** Opens a tab of the component page, clicking again until the hydrated page has switched to it. */
export async function openTab(page: Page, testId: string): Promise<void> {
  const tab = page.getByTestId(testId);
  await clickUntilTaken(tab, () => expect(tab).toHaveAttribute("aria-selected", "true", { timeout: 1_000 }));
}
