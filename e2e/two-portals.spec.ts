import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import type { Page } from "@playwright/test";
import { createConfigRemote } from "../test-support/catalog/config-remote";
import { expect, hydrated, test, waitForHealth } from "./fixtures";

// Two portal instances as deployed for availability (the same production build): one PostgreSQL database
// (a scratch one on TEST_DATABASE_URL's server) and one config repository they both clone and push to
// (CONFIG_REPO_URL, a bare repository of the shipped records). An owner edits a record through one; a
// colleague with the other instance's page open reloads and sees the edit. Without a PostgreSQL server
// there is nothing to share (PGlite is one process): skipped.
//
// Its portals listen between this worker's main portal port and the next worker's (fixtures.ts's PORT_STEP).
const serverUrl = process.env.TEST_DATABASE_URL;
test.skip(!serverUrl, "needs a PostgreSQL server (TEST_DATABASE_URL): two portal instances share one database");

const secret = "two-portals-e2e-secret-0123456789abcdef";
let root: string;
let database: string;
const portals: Array<{ url: string; child: ChildProcess }> = [];

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

test.beforeAll(async ({ servers }) => {
  test.setTimeout(120_000);
  root = path.resolve(`.data/e2e-two-portals-${servers.portalPort}`);
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const { bare: remote } = await createConfigRemote(root, path.resolve("config/components"));

  database = `e2e_two_portals_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`create database "${database}"`));
  const databaseUrl = new URL(serverUrl!);
  databaseUrl.pathname = `/${database}`;

  // Both start at once: the first to take the migration lock migrates, the other waits for it.
  const { PORTAL_DEV_TOKEN: _token, ...inherited } = process.env;
  for (const [i, name] of ["a", "b"].entries()) {
    const port = servers.portalPort + 6 + i;
    const url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "--port", String(port), "--hostname", "127.0.0.1"], {
      env: {
        ...inherited,
        NODE_ENV: "production",
        PORT: String(port),
        DATA_DIR: path.join(root, name),
        PORTAL_DATABASE_URL: databaseUrl.toString(),
        CONFIG_REPO_URL: remote,
        NEXTAUTH_URL: url,
        NEXTAUTH_SECRET: secret,
        PORTAL_DEV_LOGIN: "1",
        PORTAL_DEMO_DATA: "off",
        OFFERS_BASE_URL: servers.offersUrl,
        REDIS_URL: "",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "inherit", "inherit"],
      detached: true,
    });
    portals.push({ url, child });
  }
  await Promise.all(portals.map((p) => waitForHealth(`${p.url}/health`, 90_000)));
});

test.afterAll(async () => {
  for (const { child } of portals) {
    if (!child.pid) continue;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
  await Promise.all(portals.map(({ child }) => (child.exitCode === null && child.signalCode === null ? new Promise((r) => child.once("exit", r)) : null)));
  if (database) await admin((c) => c.query(`drop database if exists "${database}" with (force)`)).catch(() => {});
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The development sign-in on `base`, landing on `next` there. */
async function signInOn(page: Page, base: string, user: string, next: string): Promise<void> {
  await page.goto(`${base}/auth/dev/login?callbackUrl=${encodeURIComponent(next)}`);
  await hydrated(page);
  await page.getByLabel("User name").fill(user);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(`${base}${next}`);
  await hydrated(page);
  await expect(page.getByTestId("user-name")).toHaveText(user);
}

test("two portal instances: an edit saved through one shows through the other", async ({ browser }) => {
  const [a, b] = portals.map((p) => p.url) as [string, string];
  const owner = await (await browser.newContext()).newPage();
  const colleague = await (await browser.newContext()).newPage();
  // The colleague has the record open on the other instance before the edit.
  await signInOn(colleague, b, "erin.engineer", "/catalog/offers-service");
  await expect(colleague.getByTestId("component-title")).toHaveText("Offers Service");

  // carla.rossi owns offers-service (config/components/offers-service.yaml): her edit is committed.
  await signInOn(owner, a, "carla.rossi", "/catalog/offers-service");
  const newName = `Offers Service ${Date.now().toString(36)}`;
  await owner.getByTestId("edit-component").click();
  await owner.getByTestId("field-displayName").fill(newName);
  await owner.getByTestId("review-changes").click();
  await expect(owner.getByTestId("yaml-diff")).toContainText(`+   displayName: "${newName}"`);
  await owner.getByTestId("save-component").click();
  await expect(owner.getByText("Saved and committed.")).toBeVisible();

  // The other instance serves it on the colleague's next load, and lists it.
  await expect(async () => {
    await colleague.reload();
    await expect(colleague.getByTestId("component-title")).toHaveText(newName, { timeout: 500 });
  }).toPass({ timeout: 5_000 });
  await colleague.goto(`${b}/catalog?q=${encodeURIComponent(newName.split(" ").at(-1)!)}`);
  await expect(colleague.getByTestId("link-offers-service")).toHaveText(newName);
});
