import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page, Response } from "@playwright/test";
import { API_KEY, GAME, gameJwt } from "./demo-game";
import { expect, hydrated, test } from "./fixtures";
import { signInAs } from "./sign-in-as";
// Journey: every page of the portal (signed in and not, the players' rewards page with and without a
// session) and the offers service's docs page load, hydrate and work under their Content-Security-
// Policy with no violation reported; a page of another site that frames the catalog or the rewards page
// shows nothing of them; API answers carry the static headers.

const serverHeaders = { "x-api-key": API_KEY, "x-client-id": "demo-client" };
// scripts/e2e-server.mjs: a personal API token of the admin.
const ADMIN_TOKEN = "e2e-admin-token-0123456789";

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  sample?: string;
}

/**
 * Collects what the browser refuses under the policy: `securitypolicyviolation` events (listened to
 * by a script the browser runs before the page's own, outside the page's policy) and console reports.
 */
async function watchViolations(page: Page): Promise<Violation[]> {
  const violations: Violation[] = [];
  await page.exposeBinding("__reportViolation", ({ frame }, v: Omit<Violation, "page">) => {
    violations.push({ page: frame.url(), ...v });
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportViolation: (v: object) => void }).__reportViolation;
      void report({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample });
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) {
      violations.push({ page: page.url(), directive: "console", blocked: message.text() });
    }
  });
  return violations;
}

function expectPagePolicy(response: Response | null, path: string): void {
  expect(response, path).not.toBeNull();
  const headers = response!.headers();
  const policy = headers["content-security-policy"] ?? "";
  expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'(;|$)/);
  expect(policy, path).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"], path).toBe("DENY");
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toMatch(/^(strict-origin-when-cross-origin|same-origin|no-referrer)$/);
  // Served over plain HTTP here: no HSTS.
  expect(headers["strict-transport-security"], path).toBeUndefined();
}

/** Opens `path`, checks its headers, and waits until `ready` shows and the page has hydrated (its scripts ran). */
async function visit(page: Page, path: string, ready: (page: Page) => Promise<void>): Promise<void> {
  const response = await page.goto(path);
  expectPagePolicy(response, path);
  await ready(page);
  await hydrated(page);
}

const byTestId = (id: string) => async (page: Page) => {
  await expect(page.getByTestId(id).first()).toBeVisible();
};
const heading = async (page: Page) => {
  await expect(page.getByRole("heading").first()).toBeVisible();
};


test("every portal page loads and works with no Content-Security-Policy violation", async ({ page }) => {
  test.setTimeout(240_000);
  const violations = await watchViolations(page);

  // Signed out: the sign-in pages (the development sign-in form hydrates and signs in).
  await visit(page, "/auth/signin", heading);
  await signInAs(page, "admin", "/catalog");
  expectPagePolicy(await page.reload(), "/catalog");
  await hydrated(page);

  // A client-side navigation from the catalog to a component.
  await page.getByTestId("link-checkout-api").click();
  await expect(page).toHaveURL(/\/catalog\/checkout-api$/);
  await expect(page.getByTestId("component-title")).toBeVisible();

  const pages: Array<[string, (page: Page) => Promise<void>]> = [
    ["/", heading],
    ["/catalog", byTestId("catalog-list")],
    ["/catalog/checkout-api", byTestId("component-title")],
    ["/reviews", heading],
    ["/import", heading],
    ["/app-orders", heading],
    ["/app-orders/new", heading],
    ["/app-orders/queue", heading],
    ["/tokens", heading],
    ["/audit", heading],
    ["/offers", byTestId("game-picker")],
    // The support live view holds an EventSource to the portal.
    [`/offers/${GAME}/demo-player-3`, async (p) => {
      await expect(p.getByTestId("live-view").getByTestId("stream-state")).toHaveAttribute("data-status", "open");
    }],
    ["/live-ops", byTestId("game-list")],
    [`/live-ops/${GAME}`, byTestId("definition-list")],
    [`/live-ops/${GAME}/new`, byTestId("definition-form")],
    // The funnel's charts (recharts: SVG with style attributes).
    [`/live-ops/${GAME}/offers/welcome-pack`, async (p) => {
      await expect(p.getByTestId("funnel-days-chart").locator(".recharts-line").first()).toBeVisible();
    }],
    [`/live-ops/${GAME}/offers/welcome-pack/edit`, byTestId("definition-form")],
    [`/live-ops/${GAME}/webhooks`, heading],
    ["/no/such/page", byTestId("not-found-page")],
  ];
  for (const [path, ready] of pages) await visit(page, path, ready);

  expect(violations).toEqual([]);
});

test("the rewards page, with a session and without, loads and claims with no violation", async ({ page, request, offersUrl }) => {
  const violations = await watchViolations(page);
  // Without a session, and with a made-up link.
  await visit(page, "/rewards", heading);
  await page.goto(`/rewards?token=not-a-real-token&gameId=${GAME}`);
  await expect(page).toHaveURL(/error=/);
  expectPagePolicy(await page.reload(), "/rewards?error=");

  // A new player of the demo game with "Fair play" (no conditions: claimable once viewed).
  const player = `csp-player-${Date.now().toString(36)}`;
  expect((await request.post(`${offersUrl}/v1/player/snapshot`, { headers: serverHeaders, data: { playerId: player, username: "Nell" } })).status()).toBe(200);
  expect((await request.post(`${offersUrl}/v1/player/offers/assign`, { headers: serverHeaders, data: { playerId: player, offerId: "fair-play" } })).status()).toBe(200);
  const generated = await request.post(`${offersUrl}/v1/auth/one_time_token/generate`, { headers: { Authorization: `Bearer ${await gameJwt(player)}` }, data: {} });
  const { token } = (await generated.json()) as { token: string };

  await page.goto(`/rewards?token=${encodeURIComponent(token)}&gameId=${GAME}`);
  await expect(page).toHaveURL(/\/rewards$/);
  expectPagePolicy(await page.reload(), "/rewards");
  expect((await page.reload())?.headers()["referrer-policy"]).toBe("same-origin");
  await expect(page.getByRole("heading", { name: "Hi Nell!" })).toBeVisible();
  await hydrated(page);
  // Reward images are data: URLs in the demo data.
  const fairPlay = page.locator('[data-testid="reward-offer"][data-status="claimable"]').filter({ hasText: "Fair play" });
  await expect(fairPlay.getByTestId("reward").locator("img")).toHaveAttribute("src", /^data:image\//);
  const instanceId = await fairPlay.getAttribute("data-instance-id");
  await fairPlay.getByRole("button", { name: "Claim Fair play" }).click();
  await expect(page.locator(`[data-instance-id="${instanceId}"]`)).toHaveAttribute("data-status", "claimed");

  expect(violations).toEqual([]);
});

test.describe(() => {
  test.use({ axeExclusions: [{ selector: ".swagger-ui", reason: "swagger-ui's own markup and colours; the page around it is ours and checked" }] });

  test("the offers service's docs page loads with no violation", async ({ page, offersUrl }) => {
    const violations = await watchViolations(page);
    const response = await page.goto(`${offersUrl}/v1/docs`);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/script-src 'self'(;|$)/);
    // swagger-ui read the OpenAPI document, listed its operations and opens one.
    const operation = page.getByRole("button", { name: /^POST \/v1\/client\/player\/campaigns / });
    await operation.click();
    await expect(page.getByRole("button", { name: "Try it out" })).toBeVisible();
    expect(violations).toEqual([]);
  });
});

test("a page of another site that frames the catalog or the rewards page shows nothing of them", async ({ page, portalUrl }) => {
  // The other site: a page on another origin (127.0.0.2, a port the system picks) framing portal pages,
  // and one page of its own as the control. On loopback, as Chromium lets only local pages frame a local address.
  const portalFrames = ["/catalog", "/rewards", "/auth/signin", "/api"];
  const otherSite = createServer((request, response) => {
    response.setHeader("Content-Type", "text/html; charset=utf-8");
    if (request.url === "/inner") return response.end("<p id=inner>framed page of the other site</p>");
    response.end(`<!doctype html><title>other site</title>
      <iframe id="control" src="/inner"></iframe>
      ${portalFrames.map((path, i) => `<iframe id="portal-${i}" src="${portalUrl}${path}"></iframe>`).join("\n")}`);
  });
  await new Promise<void>((resolve) => otherSite.listen(0, "127.0.0.2", resolve));
  try {
    const answered = portalFrames.map((path) => page.waitForResponse((r) => r.url() === `${portalUrl}${path}`));
    await page.goto(`http://127.0.0.2:${(otherSite.address() as AddressInfo).port}/`);
    // The portal did answer each frame, with headers that refuse framing...
    for (const response of await Promise.all(answered)) {
      expect(response.headers()["x-frame-options"], response.url()).toBe("DENY");
      expect(response.headers()["content-security-policy"], response.url()).toContain("frame-ancestors 'none'");
    }
    // ...and the browser showed none of it, while the other site's own frame rendered.
    await expect(page.frameLocator("#control").locator("#inner")).toHaveText("framed page of the other site");
    // Chromium replaces a refused frame by its error document (chrome-error://; the full browser writes
    // "127.0.0.1 refused to connect." in it, the headless shell leaves it blank): no frame stays on the portal.
    await expect.poll(() => page.frames().filter((frame) => frame.url().startsWith(portalUrl)).map((frame) => frame.url())).toEqual([]);
    for (let i = 0; i < portalFrames.length; i++) {
      const frame = page.frameLocator(`#portal-${i}`);
      await expect(frame.locator("body"), portalFrames[i]).not.toContainText(/portal|rewards|Sign in|service/i);
    }
  } finally {
    await new Promise((resolve) => otherSite.close(resolve));
  }
  // The other site's page is this test's own stand-in, not the portal's: no accessibility check at the end.
  await page.close();
});

test("portal API answers carry the static headers", async ({ request }) => {
  const answers = {
    index: await request.get("/api"),
    list: await request.get("/api/components", { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }),
    refused: await request.get("/api/components"),
    health: await request.get("/health"),
  };
  expect(Object.fromEntries(Object.entries(answers).map(([name, r]) => [name, r.status()]))).toMatchObject({ list: 200, refused: 401, health: 200 });
  for (const [name, answer] of Object.entries(answers)) {
    const headers = answer.headers();
    expect(headers["content-security-policy"], name).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers["x-frame-options"], name).toBe("DENY");
    expect(headers["x-content-type-options"], name).toBe("nosniff");
    expect(headers["referrer-policy"], name).toBe("strict-origin-when-cross-origin");
  }
  // The redeem link's redirect keeps its own, stricter referrer policy (the token is in its address).
  const redeem = await request.get(`/rewards/redeem?token=not-a-real-token&gameId=${GAME}`, { maxRedirects: 0 });
  expect(redeem.status()).toBe(303);
  expect(redeem.headers()["referrer-policy"]).toBe("no-referrer");
  expect(redeem.headers()["x-frame-options"]).toBe("DENY");
});
