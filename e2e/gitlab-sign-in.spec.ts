import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { OAuth2Server } from "oauth2-mock-server";
import { expect, test, waitForHealth } from "./fixtures";

// The whole GitLab sign-in in the browser: a second portal (the same production build) configured for
// GitLab only, with GitLab's OAuth endpoints played by oauth2-mock-server on loopback (authorization
// code with PKCE, client secret, state) behind a small stand-in for the rest of GitLab's API (/api/v4/user
// and /api/v4/groups). A protected page sends the user through /auth/gitlab/login to the authorize
// endpoint, back through /auth/gitlab/callback, and lands signed in with the roles of their groups
// (config/portal.yaml: platform/operations → operator).

// Its portal listens between this worker's main portal port and the next worker's (fixtures.ts's PORT_STEP).
let portalUrl: string;
const user = { id: 4242, username: "gitlab.olivia", name: "Olivia from GitLab", email: "olivia@example.com" };
const groups = ["platform/operations", "growth"];

let oauth: OAuth2Server;
let gitlab: http.Server;
let portal: ChildProcess | undefined;
const seen: string[] = [];

test.beforeAll(async ({ servers }) => {
  test.setTimeout(120_000);
  const portalPort = servers.portalPort + 5;
  portalUrl = `http://127.0.0.1:${portalPort}`;
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  // GitLab's token answer has no id_token (GitLab is plain OAuth 2 here; next-auth exchanges the code as such).
  oauth.service.on("beforeResponse", (response: { body: Record<string, unknown> }) => {
    delete response.body.id_token;
  });
  const mock = oauth.issuer.url!;

  // GitLab's addresses: OAuth goes to the mock, the API answers the user and their groups.
  gitlab = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://gitlab.test");
    seen.push(`${req.method} ${url.pathname}`);
    const authorized = /^Bearer .+/.test(req.headers.authorization ?? "");
    if (req.method === "GET" && url.pathname === "/oauth/authorize") {
      res.writeHead(302, { Location: `${mock}/authorize${url.search}` }).end();
      return;
    }
    if (req.method === "POST" && url.pathname === "/oauth/token") {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(`${mock}/token`, {
        method: "POST",
        headers: { "content-type": req.headers["content-type"] ?? "application/x-www-form-urlencoded", ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}) },
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
      return;
    }
    if (req.method === "GET" && url.pathname === "/api/v4/user" && authorized) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(user));
      return;
    }
    if (req.method === "GET" && url.pathname === "/api/v4/groups" && authorized) {
      res.writeHead(200, { "content-type": "application/json", "x-next-page": "" }).end(JSON.stringify(groups.map((full_path) => ({ full_path }))));
      return;
    }
    res.writeHead(authorized ? 404 : 401, { "content-type": "application/json" }).end(JSON.stringify({ message: "404 Not Found" }));
  });
  gitlab.listen(0, "127.0.0.1");
  await once(gitlab, "listening");
  const gitlabUrl = `http://127.0.0.1:${(gitlab.address() as AddressInfo).port}`;

  const dataDir = `.data/e2e-gitlab-${portalPort}`;
  rmSync(dataDir, { recursive: true, force: true });
  // GitLab only: no development sign-in, no seeded token (unset, not empty: the settings check refuses "").
  const { PORTAL_DEV_LOGIN: _login, PORTAL_DEV_TOKEN: _token, ...inherited } = process.env;
  portal = spawn("npx", ["next", "start", "--port", String(portalPort), "--hostname", "127.0.0.1"], {
    env: {
      ...inherited,
      NODE_ENV: "production",
      PORT: String(portalPort),
      DATA_DIR: dataDir,
      NEXTAUTH_URL: portalUrl,
      NEXTAUTH_SECRET: "gitlab-sign-in-e2e-secret-0123456789",
      GITLAB_URL: gitlabUrl,
      GITLAB_CLIENT_ID: "portal-e2e",
      GITLAB_CLIENT_SECRET: "portal-e2e-secret",
      PORTAL_DEMO_DATA: "off",
      PORTAL_DATABASE_URL: "",
      REDIS_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  await waitForHealth(`${portalUrl}/health`, 60_000);
});

test.afterAll(async () => {
  if (portal?.pid) {
    try {
      process.kill(-portal.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  }
  gitlab?.close();
  await oauth?.stop();
});

test("GitLab sign-in: redirect, callback, session, and the roles of the user's groups", async ({ page }) => {
  await page.goto(`${portalUrl}/catalog`);
  await expect(page.getByTestId("signed-out")).toBeVisible();
  await page.getByTestId("signed-out").getByRole("link", { name: "Sign in" }).click();

  // Only GitLab is offered (no development sign-in here); it leads through GitLab and back.
  await page.getByRole("link", { name: /GitLab/ }).click();
  // Four redirects through three servers.
  await expect(page).toHaveURL(`${portalUrl}/catalog`, { timeout: 60_000 });
  await expect(page.getByTestId("user-name")).toHaveText(user.name);
  expect(seen).toEqual(expect.arrayContaining(["GET /oauth/authorize", "POST /oauth/token", "GET /api/v4/user", "GET /api/v4/groups"]));

  // The session names the user and the groups GitLab gave; platform/operations makes them an operator.
  const session = await (await page.request.get(`${portalUrl}/api/auth/session`)).json();
  expect(session.user).toMatchObject({ id: user.username, groups: expect.arrayContaining(groups), roles: expect.arrayContaining(["engineer", "operator"]) });
  await expect(page.getByRole("button", { name: "Refresh catalog" })).toBeVisible();
  const refresh = await page.request.post(`${portalUrl}/api/cache/refresh`, { headers: { Origin: portalUrl } });
  expect(refresh.status()).toBe(200);
  // Not an admin: the audit log stays closed.
  expect((await page.request.get(`${portalUrl}/api/audit`)).status()).toBe(403);
});
