import { expect, type Locator } from "@playwright/test";

/**
 * Types `value` into `field` until `taken` passes. A production build hydrates a moment after the
 * page shows, and what was typed before that never reaches the form's state. React learns of a value
 * only from a change, so typing the same value again would do nothing. Each attempt empties the
 * field first.
 */
export async function typeUntilTaken(field: Locator, value: string, taken: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await field.fill("");
    await field.fill(value);
    await taken();
  }).toPass();
}

/** Clicks `target` until `taken` passes: a click before hydration does nothing. */
export async function clickUntilTaken(target: Locator, taken: () => Promise<void>): Promise<void> {
  await expect(async () => {
    await target.click();
    await taken();
  }).toPass();
}
