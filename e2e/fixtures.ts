// What every journey imports instead of @playwright/test: `test` with each worker's own servers, the
// wait for a page's hydration, and the accessibility check (axe, WCAG 2.0 and 2.1 A and AA) that runs at
// every hydration, every tab a journey opens and, after each passing test, on every page still open.
//
// A worker starts scripts/e2e-server.mjs (production builds of the portal and the offers service, a
// fresh data directory, its own Redis prefix) on ports of its own: the base ports (E2E_PORTAL_PORT,
// E2E_OFFERS_PORT; 3100 and 4100 by default) plus PORT_STEP times its parallel index. The build is
// made once before the workers start (playwright.config.ts's globalSetup). `baseURL` is the
// worker's portal, so `page.goto("/catalog")` and `request.get("/api")` reach it.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { AxeBuilder } from "@axe-core/playwright";
import { test as base, expect, type BrowserContext, type Page, type Response } from "@playwright/test";

export { expect };

export interface E2eServers {
  portalPort: number;
  offersPort: number;
  portalUrl: string;
  offersUrl: string;
  /** The portal's and the offers service's DATA_DIR (its config repository is `config-repo`). */
  dataDir: string;
}

/** Ports between one worker's and the next; a journey may start a server of its own below it (e2e/gitlab-sign-in.spec.ts). */
export const PORT_STEP = 10;
const START_TIMEOUT_MS = 180_000;

/**
 * The portal answers /health before its source control is wired: on a first start that creates the
 * demo repositories, dozens of git commands that took over 20 s on a loaded machine. A component's
 * status waits for that wiring; asked here, it keeps that wait out of the first journey's time.
 */
async function awaitSourceControl(servers: E2eServers, deadline: number): Promise<void> {
  const status = await fetch(`${servers.portalUrl}/api/components/checkout-api/status`, {
    // scripts/e2e-server.mjs's PORTAL_DEV_TOKEN: a personal API token of the admin.
    headers: { Authorization: "Bearer e2e-admin-token-0123456789" },
    signal: AbortSignal.timeout(Math.max(1_000, deadline - Date.now())),
  });
  if (!status.ok) throw new Error(`${servers.portalUrl}: a component's status answered ${status.status} after the start`);
}

async function startServers(parallelIndex: number): Promise<{ servers: E2eServers; stop: () => Promise<void> }> {
  const portalPort = Number(process.env.E2E_PORTAL_PORT ?? 3100) + parallelIndex * PORT_STEP;
  const offersPort = Number(process.env.E2E_OFFERS_PORT ?? 4100) + parallelIndex * PORT_STEP;
  const servers: E2eServers = {
    portalPort,
    offersPort,
    portalUrl: `http://127.0.0.1:${portalPort}`,
    offersUrl: `http://127.0.0.1:${offersPort}`,
    dataDir: `.data/e2e-${portalPort}`,
  };
  // A server left running on these ports (another run, a killed one) would answer for ours.
  if (await fetch(`${servers.portalUrl}/health`).then(() => true, () => false)) {
    throw new Error(`${servers.portalUrl} already answers: stop what listens there, or set other base ports (E2E_PORTAL_PORT, E2E_OFFERS_PORT)`);
  }
  const child = spawn(process.execPath, ["scripts/e2e-server.mjs", "--no-build"], {
    env: { ...process.env, E2E_PORTAL_PORT: String(portalPort), E2E_OFFERS_PORT: String(offersPort) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The services log warnings and failures only: shown with the test that runs meanwhile.
  child.stdout.on("data", (chunk: Buffer) => process.stdout.write(chunk));
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  const exited = once(child, "exit");
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    // scripts/lib/services.mjs stops both services, killing what still runs after 10 s.
    await exited;
  };

  // Both services start at once: up means both answer /health.
  const answers = (url: string) => fetch(`${url}/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.ok, () => false);
  const deadline = Date.now() + START_TIMEOUT_MS;
  let ended = false;
  void exited.then(() => (ended = true));
  for (;;) {
    if (ended) throw new Error(`scripts/e2e-server.mjs on ${servers.portalUrl} exited with code ${child.exitCode} before it answered (its output is above)`);
    const ok = (await answers(servers.offersUrl)) && (await answers(servers.portalUrl));
    if (ok) {
      await awaitSourceControl(servers, deadline).catch(async (error: unknown) => {
        await stop();
        throw error;
      });
      return { servers, stop };
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${servers.portalUrl}/health did not answer within ${START_TIMEOUT_MS / 1000} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The rules every page state meets: WCAG 2.0 and 2.1, levels A and AA. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** A region axe leaves out: only a third party's, never the portal's own markup, each with why. */
export interface AxeExclusion {
  selector: string;
  reason: string;
}

// The current test's exclusions (a worker runs one test at a time), set by the axeCheck fixture so that
// hydrated() and expectAccessible() need no fixture argument.
let currentExclusions: readonly AxeExclusion[] = [];

/** What axe found, one violation a paragraph: the rule, its help, and each node's selector and why. */
export function describeViolations(violations: Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"]): string {
  return violations
    .map((v) =>
      [
        `${v.id} (${v.impact ?? "no impact"}): ${v.help} <${v.helpUrl}>`,
        ...v.nodes.map((n) => `  ${n.target.join(" ")}\n    ${(n.failureSummary ?? "").replaceAll("\n", "\n    ")}`),
      ].join("\n"),
    )
    .join("\n");
}

/**
 * Asserts that axe finds no violation of AXE_TAGS on the page as it is now. Journeys call it at a state
 * no hydration reaches (a dialog open, a chart drawn, a stream's log filled); `what` names that state.
 */
export async function expectAccessible(page: Page, what?: string): Promise<void> {
  if (page.isClosed() || !(await isPortalDocument(page))) return;
  // Next streams the <title> into the head after the body: a check in between (a refresh that re-renders the
  // page as a test ends) would read a document without one. Wait for it; a page that never gets one still fails.
  await page.waitForFunction(() => document.title.trim() !== "", null, { timeout: 5_000 }).catch(() => undefined);
  // A state this worker has already checked (the same path, as many elements and as much text: the sign-in page
  // of every journey, a list shown again) is not analysed again: axe is the costliest step of a journey.
  const seen = await checkedBefore(page);
  if (seen) return;
  const analyze = () => {
    // Legacy mode runs axe in the page itself: the default opens a blank page in the journey's context.
    let builder = new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode(true);
    for (const { selector } of currentExclusions) builder = builder.exclude(selector);
    return builder.analyze();
  };
  // A page that navigates meanwhile (a redirect, a form that posts) is checked again once it has loaded.
  const { violations } = await analyze().catch(async (error: unknown) => {
    if (!String(error).includes("Execution context was destroyed")) throw error;
    await page.waitForLoadState("load");
    return analyze();
  });
  const state = `${what ? `${what}: ` : ""}${new URL(page.url()).pathname}`;
  // The rule ids are compared, the message carries the rest (a deep diff of axe's results is hundreds of lines).
  expect(violations.map((v) => v.id), `axe (${AXE_TAGS.join(", ")}) on ${state}\n${describeViolations(violations)}`).toEqual([]);
}

// The states this worker's pages were checked in, with the exclusions they were checked under.
const checkedStates = new Set<string>();

async function checkedBefore(page: Page): Promise<boolean> {
  const shape = await page
    .evaluate(() => `${location.pathname}|${document.querySelectorAll("*").length}|${document.body?.innerText.length ?? 0}`)
    .catch(() => null);
  if (shape === null) return false;
  const key = `${shape}|${currentExclusions.map((e) => e.selector).join(",")}`;
  if (checkedStates.has(key)) return true;
  checkedStates.add(key);
  return false;
}

// A JSON answer or a blank tab is no page of ours: only the portal's HTML documents are checked.
async function isPortalDocument(page: Page): Promise<boolean> {
  if (!/^https?:/.test(page.url())) return false;
  return page.evaluate(() => document.contentType === "text/html").catch(() => false);
}

async function openPortalPages(context: BrowserContext): Promise<Page[]> {
  const pages = context.browser()?.contexts().flatMap((c) => c.pages()) ?? context.pages();
  return pages.filter((p) => !p.isClosed());
}

export const test = base.extend<{ portalUrl: string; offersUrl: string; axeExclusions: AxeExclusion[]; axeCheck: void }, { servers: E2eServers }>({
  servers: [
    async ({}, provide, workerInfo) => {
      const { servers, stop } = await startServers(workerInfo.parallelIndex);
      try {
        await provide(servers);
      } finally {
        await stop();
      }
    },
    { scope: "worker", timeout: START_TIMEOUT_MS + 30_000 },
  ],
  portalUrl: async ({ servers }, provide) => provide(servers.portalUrl),
  offersUrl: async ({ servers }, provide) => provide(servers.offersUrl),
  baseURL: async ({ servers }, provide) => provide(servers.portalUrl),
  /** `test.use({ axeExclusions: [{ selector, reason }] })`: a third party's region axe leaves out. */
  axeExclusions: [[], { option: true }],
  // After a passing test, every page it left open (of any context) is checked as it ends; a failing test
  // keeps its own error.
  axeCheck: [
    async ({ context, axeExclusions }, provide, testInfo) => {
      currentExclusions = axeExclusions;
      try {
        await provide();
        if (testInfo.status !== "passed") return;
        for (const page of await openPortalPages(context)) await expectAccessible(page, "as the test ended");
      } finally {
        currentExclusions = [];
      }
    },
    { auto: true },
  ],
});

/**
 * Waits until React has hydrated the page (app/hydration-mark.tsx marks <html>): a production page
 * shows before that, and a click or a keystroke before it is lost. Needed after every full page
 * load (goto, reload, a redirect, a form that posts) that a click or typing follows; a client-side
 * navigation keeps the hydrated document. Then checks the page with axe (expectAccessible).
 */
export async function hydrated(page: Page): Promise<void> {
  await expect(page.locator("html"), "the page hydrated").toHaveAttribute("data-hydrated", "true", { timeout: 30_000 });
  await expectAccessible(page, "hydrated");
}

/** Opens a portal page and waits until it has hydrated. */
export async function openPage(page: Page, url: string): Promise<Response | null> {
  const response = await page.goto(url);
  await hydrated(page);
  return response;
}

/** Waits until `url` answers 2xx (a server a journey started itself). */
export async function waitForHealth(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await fetch(url).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
