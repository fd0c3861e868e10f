import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, openPage, test } from "./fixtures";
import { signInAs } from "./sign-in-as";

// An operator's record file breaks in the config repository behind the portal's back; "Refresh
// catalog" shows the error on the errors page, and once the file is fixed the same button there
// clears it. The config repository is the local one the worker's servers' DATA_DIR holds.
const file = "components/anti-cheat.yaml";

function commitOutOfBand(repoDir: string, text: string, message: string): void {
  writeFileSync(path.join(repoDir, file), text);
  const git = (...args: string[]) => execFileSync("git", ["-C", repoDir, "-c", "user.name=E2E", "-c", "user.email=e2e@example.com", ...args]);
  git("add", file);
  git("commit", "--quiet", "-m", message);
}

/** Presses the button and waits until the page announces an outcome. */
async function refreshCatalog(page: Page): Promise<void> {
  const box = page.getByTestId("refresh-catalog");
  await box.getByRole("button", { name: "Refresh catalog" }).click();
  await expect(box.getByRole("status")).not.toBeEmpty();
}

test("operator: a broken record shows on the errors page after a refresh, and a refresh there clears it once fixed", async ({ page, servers }) => {
  const repoDir = path.resolve(servers.dataDir, "config-repo");
  const original = readFileSync(path.join(repoDir, file), "utf8");
  await signInAs(page, "olga", "/catalog");

  commitOutOfBand(repoDir, `metadata: [\n${original}`, "Break anti-cheat (e2e)");
  try {
    await refreshCatalog(page);
    await expect(page.getByTestId("refresh-catalog").getByRole("status")).toHaveText(/new errors?/);

    await openPage(page, "/catalog/errors");
    await expect(page.getByTestId("catalog-errors")).toContainText(file);

    commitOutOfBand(repoDir, original, "Fix anti-cheat (e2e)");
    await refreshCatalog(page);
    // The page data is re-read at once: the file's error row is gone (other rows, if any, stay).
    await expect(page.getByTestId("catalog-errors").locator("code", { hasText: file })).toHaveCount(0);
  } finally {
    // Later journeys on this worker's servers expect the shipped record, whatever happened above.
    if (readFileSync(path.join(repoDir, file), "utf8") !== original) commitOutOfBand(repoDir, original, "Restore anti-cheat (e2e)");
  }
});

test("engineers get no refresh button", async ({ page }) => {
  await signInAs(page, `eng${Date.now().toString(36)}`, "/catalog");
  await expect(page.getByTestId("refresh-catalog")).toHaveCount(0);
});
