// Every mutating route of the portal's route registry (app/api/openapi.json/document.ts) either writes exactly one
// audit entry per successful call, with its action, the caller and the request id, or is exempt here with a reason.
// A new POST, PUT, PATCH or DELETE fails the first test until it is listed below. Routes of the offers service's
// games meet a fake admin API on loopback (the real one is a built process: app/api/offers/*.system.test.ts).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import type { LocalScmProvider } from "@/lib/scm/local";
import { DEMO_REPOSITORIES, ensureDemoRepositories } from "@/lib/scm/demo";
import { listAudit, type AuditAction } from "@/lib/portal/audit-store";
import type { RouteHandler } from "@/lib/portal/http";
import type { Role } from "@/lib/portal/roles";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { portalRouteModules } from "../openapi.json/document";

const MUTATING = ["POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof MUTATING)[number];
type RouteKey = `${Method} /api${string}`;

const GAME = "audit-game";
const OFFER = "audit-offer";
const ENDPOINT = "ep-1";

/** Routes that change nothing an audit log keeps. */
const EXEMPT: Partial<Record<RouteKey, string>> = {
  "POST /api/auth/logout": "signs the caller out: clears the session cookie of this browser, changes no data",
  "POST /api/offers/games/{gameId}/audience/count": "reads only: counts the players an audience rule matches now",
  "POST /api/offers/games/{gameId}/definitions/{offerId}/preview": "reads only: evaluates a definition for one player",
  "POST /api/offers/games/{gameId}/bulk-compensations/preview": "reads only: counts the players a compensation would grant; nothing is stored",
};

interface Call {
  /** Who calls (a user of `users`). */
  as: string;
  /** The path with its parameters filled in (query included). */
  url: string;
  /** The path parameters the handler receives. */
  params?: Record<string, string>;
  json?: unknown;
  /** A multipart form instead of JSON (an upload). */
  form?: Record<string, string>;
  headers?: Record<string, string>;
}

interface AuditedCase {
  route: RouteKey;
  action: AuditAction;
  status: number;
  /** Changes made first (their own entries are not counted). */
  setup?: () => Promise<void>;
  call: () => Call | Promise<Call>;
}

const users: Array<[string, Role[]]> = [
  ["eddie", ["engineer"]],
  ["lena", ["engineer"]],
  ["lee", ["engineer", "lead"]],
  ["olga", ["engineer", "operator"]],
  ["lina", ["engineer", "liveops"]],
  ["sue", ["engineer", "support"]],
  ["admin", ["admin"]],
];
const signedIn: Record<string, Record<string, string>> = {};
let portal: PortalTest;
let offers: FakeOffers;
let handlers: Map<RouteKey, RouteHandler>;

/** Calls a route of the registry as `call` says, with a request id of its own. */
async function invoke(route: RouteKey, call: Call, requestId: string): Promise<Response> {
  const handler = handlers.get(route);
  if (!handler) throw new Error(`${route} is not in the registry`);
  const method = route.slice(0, route.indexOf(" "));
  const form = call.form ? new FormData() : undefined;
  for (const [name, value] of Object.entries(call.form ?? {})) form!.append(name, value);
  const request = new Request(`http://portal.test${call.url}`, {
    method,
    headers: { ...signedIn[call.as], "x-request-id": requestId, ...(call.json !== undefined ? { "content-type": "application/json" } : {}), ...call.headers },
    body: form ?? (call.json === undefined ? undefined : JSON.stringify(call.json)),
  });
  return handler(request, { params: Promise.resolve(call.params ?? {}) });
}

const post = async (route: RouteKey, call: Call) => {
  const response = await invoke(route, call, `setup-${Math.random().toString(36).slice(2)}`);
  expect(response.status, `${route} (setup)`).toBeLessThan(300);
  return response.json();
};

const orderBody = (name: string) => ({ name, displayName: `The ${name}`, kind: "service", owners: [{ user: "eddie" }], environments: ["dev"], repoPath: `commerce/${name}` });
const component = (name: string) => portal.catalog.get(name)?.component;
const ofComponent = (name: string) => ({ name });
const ofGame = { gameId: GAME };
const ofOffer = { gameId: GAME, offerId: OFFER };
const ofEndpoint = { gameId: GAME, endpointId: ENDPOINT };
const definitionInput = { name: "Audit offer", rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5 }], durationSeconds: 3600 };

// What the cases hand on to later ones.
const state = { token: "", order: "", rejected: "", proposal: 0, closing: 0 };

const CASES: AuditedCase[] = [
  { route: "POST /api/components/{name}/favorite", action: "favorite.add", status: 200, call: () => ({ as: "eddie", url: "/api/components/checkout-api/favorite", params: ofComponent("checkout-api") }) },
  { route: "DELETE /api/components/{name}/favorite", action: "favorite.remove", status: 200, call: () => ({ as: "eddie", url: "/api/components/checkout-api/favorite", params: ofComponent("checkout-api") }) },
  {
    route: "PUT /api/components/{name}",
    action: "component.update",
    status: 200,
    call: () => ({
      as: "eddie",
      url: "/api/components/checkout-api",
      params: ofComponent("checkout-api"),
      headers: { "if-match": "*" },
      json: { ...component("checkout-api"), metadata: { ...component("checkout-api")?.metadata, displayName: "Checkout (put)" } },
    }),
  },
  {
    route: "PATCH /api/components/{name}",
    action: "component.update",
    status: 200,
    call: () => ({ as: "eddie", url: "/api/components/checkout-api", params: ofComponent("checkout-api"), headers: { "if-match": "*" }, json: { metadata: { displayName: "Checkout (patch)" } } }),
  },
  {
    route: "POST /api/components/{name}/config",
    action: "config.write",
    status: 200,
    call: () => ({ as: "olga", url: "/api/components/checkout-api/config", params: ofComponent("checkout-api"), json: { environment: "staging", values: { WORKERS: 2 } } }),
  },
  {
    route: "POST /api/components/{name}/config/bulk",
    action: "config.write",
    status: 200,
    call: () => ({ as: "olga", url: "/api/components/checkout-api/config/bulk", params: ofComponent("checkout-api"), json: { updates: [{ environment: "dev", values: { A: 1 } }] } }),
  },
  {
    route: "POST /api/components/{name}/releases",
    action: "release.create",
    status: 201,
    call: () => ({ as: "olga", url: "/api/components/checkout-api/releases", params: ofComponent("checkout-api"), json: { environment: "staging" } }),
  },
  { route: "POST /api/cache/refresh", action: "cache.refresh", status: 200, call: () => ({ as: "olga", url: "/api/cache/refresh" }) },
  {
    route: "POST /api/scorecards/rules",
    action: "merge-request.propose",
    status: 202,
    call: () => ({ as: "olga", url: "/api/scorecards/rules", json: { yaml: "levels: [bronze]\nrules:\n  - id: two-owners\n    title: At least two owners\n    level: bronze\n    check: { type: minOwners, count: 2 }\n" } }),
  },
  { route: "POST /api/import/components", action: "import.components", status: 201, call: () => ({ as: "olga", url: "/api/import/components", json: { repositories: ["growth/quest-engine"] } }) },
  { route: "POST /api/tokens", action: "token.create", status: 201, call: () => ({ as: "eddie", url: "/api/tokens", json: { name: "audited" } }) },
  { route: "DELETE /api/tokens/{id}", action: "token.revoke", status: 200, call: () => ({ as: "eddie", url: `/api/tokens/${state.token}`, params: { id: state.token } }) },
  { route: "POST /api/app-order-requests", action: "order.create", status: 201, call: () => ({ as: "eddie", url: "/api/app-order-requests", json: orderBody("cart-api") }) },
  { route: "POST /api/app-order-requests/{id}/approve", action: "order.approve", status: 200, call: () => ({ as: "lee", url: `/api/app-order-requests/${state.order}/approve`, params: { id: state.order } }) },
  {
    route: "POST /api/app-order-requests/{id}/reject",
    action: "order.reject",
    status: 200,
    setup: async () => {
      state.rejected = (await post("POST /api/app-order-requests", { as: "eddie", url: "/api/app-order-requests", json: orderBody("nope-api") })).id;
    },
    call: () => ({ as: "lee", url: `/api/app-order-requests/${state.rejected}/reject`, params: { id: state.rejected }, json: { reason: "We have one already." } }),
  },
  {
    route: "POST /api/merge-requests/{id}/approve",
    action: "merge-request.approve",
    status: 200,
    setup: async () => {
      const proposed = await post("PATCH /api/components/{name}", { as: "lena", url: "/api/components/checkout-api", params: ofComponent("checkout-api"), headers: { "if-match": "*" }, json: { metadata: { displayName: "Checkout (lena)" } } });
      state.proposal = proposed.mergeRequest.iid;
    },
    call: () => ({ as: "eddie", url: `/api/merge-requests/${state.proposal}/approve`, params: { id: String(state.proposal) } }),
  },
  { route: "POST /api/merge-requests/{id}/merge", action: "merge-request.merge", status: 200, call: () => ({ as: "eddie", url: `/api/merge-requests/${state.proposal}/merge`, params: { id: String(state.proposal) } }) },
  {
    route: "POST /api/merge-requests/{id}/close",
    action: "merge-request.close",
    status: 200,
    setup: async () => {
      const proposed = await post("PATCH /api/components/{name}", { as: "lena", url: "/api/components/checkout-api", params: ofComponent("checkout-api"), headers: { "if-match": "*" }, json: { metadata: { displayName: "Checkout (again)" } } });
      state.closing = proposed.mergeRequest.iid;
    },
    call: () => ({ as: "lena", url: `/api/merge-requests/${state.closing}/close`, params: { id: String(state.closing) }, json: { reason: "Not needed after all." } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/definitions",
    action: "offer-definition.create",
    status: 201,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/definitions`, params: ofGame, json: { offerId: OFFER, ...definitionInput } }),
  },
  {
    route: "PUT /api/offers/games/{gameId}/definitions/{offerId}",
    action: "offer-definition.update",
    status: 200,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/definitions/${OFFER}`, params: ofOffer, headers: { "if-match": offers.definitionEtag() }, json: { ...definitionInput, name: "Audit offer (edited)" } }),
  },
  ...(["activate", "pause", "archive", "restore"] as const).map(
    (action): AuditedCase => ({
      route: `POST /api/offers/games/{gameId}/definitions/{offerId}/${action}`,
      action: `offer-definition.${action}`,
      status: 200,
      call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/definitions/${OFFER}/${action}`, params: ofOffer, headers: { "if-match": offers.definitionEtag() } }),
    }),
  ),
  {
    route: "POST /api/offers/games/{gameId}/webhooks/endpoints",
    action: "webhook.create",
    status: 201,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/endpoints`, params: ofGame, json: { url: "https://hooks.example.test/rewards" } }),
  },
  {
    route: "PATCH /api/offers/games/{gameId}/webhooks/endpoints/{endpointId}",
    action: "webhook.update",
    status: 200,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/endpoints/${ENDPOINT}`, params: ofEndpoint, headers: { "if-match": offers.endpointEtag() }, json: { enabled: false } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/webhooks/endpoints/{endpointId}/rotate-secret",
    action: "webhook.rotate-secret",
    status: 200,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/endpoints/${ENDPOINT}/rotate-secret`, params: ofEndpoint, headers: { "if-match": offers.endpointEtag() } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/webhooks/endpoints/{endpointId}/test",
    action: "webhook.test",
    status: 202,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/endpoints/${ENDPOINT}/test`, params: ofEndpoint }),
  },
  {
    route: "POST /api/offers/games/{gameId}/webhooks/deliveries/{deliveryId}/replay",
    action: "webhook.replay",
    status: 202,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/deliveries/7/replay`, params: { gameId: GAME, deliveryId: "7" } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/webhooks/replay",
    action: "webhook.replay",
    status: 202,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/replay`, params: ofGame, json: { from: "2026-01-01T00:00:00.000Z", to: "2026-01-02T00:00:00.000Z" } }),
  },
  {
    route: "DELETE /api/offers/games/{gameId}/webhooks/endpoints/{endpointId}",
    action: "webhook.delete",
    status: 200,
    call: () => ({ as: "lina", url: `/api/offers/games/${GAME}/webhooks/endpoints/${ENDPOINT}`, params: ofEndpoint, headers: { "if-match": offers.endpointEtag() } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/players/{playerId}/support-grants",
    action: "support-grant.request",
    status: 200,
    call: () => ({ as: "sue", url: `/api/offers/games/${GAME}/players/p1/support-grants`, params: { gameId: GAME, playerId: "p1" }, json: { kind: "coins", rewardId: "gold", amount: 5000, reason: "outage" } }),
  },
  ...(["approve", "reject"] as const).map(
    (decision): AuditedCase => ({
      route: `POST /api/offers/games/{gameId}/support-grants/{grantId}/${decision}`,
      action: `support-grant.${decision}`,
      status: 200,
      call: () => ({ as: "lee", url: `/api/offers/games/${GAME}/support-grants/sg_1/${decision}`, params: { gameId: GAME, grantId: "sg_1" }, json: { reason: "checked" } }),
    }),
  ),
  {
    route: "PUT /api/offers/games/{gameId}/support-thresholds",
    action: "support-thresholds.update",
    status: 200,
    call: () => ({ as: "lee", url: `/api/offers/games/${GAME}/support-thresholds`, params: { gameId: GAME }, json: { rules: [{ kind: "coins", approvalAbove: 1000 }] } }),
  },
  ...(["expire", "revoke", "make-claimable", "extend"] as const).map(
    (action): AuditedCase => ({
      route: `POST /api/offers/games/{gameId}/players/{playerId}/offers/{instanceId}/${action}`,
      action: `support-offer.${action}`,
      status: 200,
      call: () => ({
        as: "sue",
        url: `/api/offers/games/${GAME}/players/p1/offers/i1/${action}`,
        params: { gameId: GAME, playerId: "p1", instanceId: "i1" },
        json: action === "extend" ? { reason: "outage", expiresAt: new Date(Date.now() + 86_400_000).toISOString() } : { reason: "outage" },
      }),
    }),
  ),
  {
    route: "POST /api/offers/games/{gameId}/players/{playerId}/offers",
    action: "support-offer.reoffer",
    status: 200,
    call: () => ({ as: "sue", url: `/api/offers/games/${GAME}/players/p1/offers`, params: { gameId: GAME, playerId: "p1" }, json: { offerId: OFFER, reason: "missed it in the outage" } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/players/{playerId}/deliveries/replay",
    action: "support-deliveries.resend",
    status: 200,
    call: () => ({ as: "sue", url: `/api/offers/games/${GAME}/players/p1/deliveries/replay`, params: { gameId: GAME, playerId: "p1" }, json: { reason: "webhook lost" } }),
  },
  {
    route: "POST /api/offers/games/{gameId}/bulk-compensations",
    action: "bulk-compensation.request",
    status: 200,
    call: () => ({ as: "sue", url: `/api/offers/games/${GAME}/bulk-compensations`, params: ofGame, form: { kind: "coins", rewardId: "gold", amount: "100", reason: "outage", players: "playerId\np1\np2" } }),
  },
  ...(["approve", "reject", "cancel"] as const).map(
    (action): AuditedCase => ({
      route: `POST /api/offers/games/{gameId}/bulk-compensations/{jobId}/${action}`,
      action: `bulk-compensation.${action}`,
      status: 200,
      call: () => ({ as: "lee", url: `/api/offers/games/${GAME}/bulk-compensations/bc_1/${action}`, params: { gameId: GAME, jobId: "bc_1" }, json: { reason: "checked" } }),
    }),
  ),
];

/** What a case's answer hands on to later cases. */
async function remember(route: RouteKey, response: Response): Promise<void> {
  if (route === "POST /api/tokens") state.token = (await response.clone().json()).id;
  if (route === "POST /api/app-order-requests") state.order = (await response.clone().json()).id;
}

beforeAll(async () => {
  offers = await startFakeOffers();
  const owners = [{ user: "alice", group: "commerce/backend" }, { user: "eddie" }];
  portal = await startPortalTest({
    components: { "checkout-api.yaml": yamlOf(validComponent("checkout-api", { repo: { path: "commerce/checkout-api" }, owners }), "the checkout") },
    settings: (settings) => ({ ...settings, offersAdmin: () => ({ baseUrl: offers.url, token: "fake-admin-token" }) }),
  });
  await ensureDemoRepositories(portal.gitops.scm as LocalScmProvider, DEMO_REPOSITORIES.filter((r) => ["commerce/checkout-api", "growth/quest-engine"].includes(r.path)));
  for (const [id, roles] of users) signedIn[id] = await portal.signIn({ id, name: `${id} (name)`, roles });
  handlers = new Map();
  for (const { path, module } of await portalRouteModules()) {
    for (const method of MUTATING) {
      const handler = module[method];
      if (typeof handler === "function") handlers.set(`${method} ${path}` as RouteKey, handler as RouteHandler);
    }
  }
}, 120_000);
afterAll(async () => {
  await portal?.close();
  await offers?.close();
});

describe("every mutating portal route is audited", () => {
  it("lists each mutating route of the registry once: audited with its action, or exempt with a reason", () => {
    const listed = [...CASES.map((c) => c.route), ...Object.keys(EXEMPT)];
    expect(new Set(listed).size, "a route listed twice").toBe(listed.length);
    expect([...listed].sort()).toEqual([...handlers.keys()].sort());
    for (const reason of Object.values(EXEMPT)) expect(reason?.length ?? 0).toBeGreaterThan(10);
  });

  it.each(CASES.map((c, i) => [`${c.route} → ${c.action}`, i] as const))("%s: one entry per successful call", async (_name, index) => {
    const c = CASES[index];
    await c.setup?.();
    const before = (await listAudit(portal.db, { limit: 1 })).entries[0]?.id ?? 0;
    const call = await c.call();
    const requestId = `audited-${index}`;
    const response = await invoke(c.route, call, requestId);
    expect(response.status, await response.clone().text()).toBe(c.status);
    await remember(c.route, response);
    const written = (await listAudit(portal.db, { limit: 200 })).entries.filter((e) => e.id > before);
    expect(written.map((e) => ({ action: e.action, actor: e.actor, requestId: e.requestId }))).toEqual([{ action: c.action, actor: call.as, requestId }]);
  });
});

// ---- a fake admin API of the offers service: one game, one definition and one webhook endpoint ----

interface FakeOffers {
  url: string;
  definitionEtag(): string;
  endpointEtag(): string;
  close(): Promise<void>;
}

async function startFakeOffers(): Promise<FakeOffers> {
  const at = new Date().toISOString();
  let definition: Record<string, unknown> & { version: number; etag: string } = {
    gameId: GAME,
    offerId: OFFER,
    name: "Audit offer",
    description: "",
    rewards: definitionInput.rewards,
    realTime: false,
    durationSeconds: 3600,
    priority: 0,
    status: "draft",
    version: 1,
    etag: '"d1"',
    audience: null,
    schedule: { startsAt: null, endsAt: null },
    limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0, maxClaimsTotal: null },
    rollout: 100,
    variants: null,
    createdAt: at,
    updatedAt: at,
  };
  let endpoint = { endpointId: ENDPOINT, gameId: GAME, url: "https://hooks.example.test/rewards", description: "", eventTypes: ["reward.granted"], enabled: true, previousSecretExpiresAt: null as string | null, createdAt: at, updatedAt: at, etag: '"w1"' };
  const changeDefinition = (patch: Record<string, unknown>) => {
    const before = definition;
    definition = { ...definition, ...patch, version: definition.version + 1, etag: `"d${definition.version + 1}"` };
    return { definition, before, changed: true, job: null };
  };
  const changeEndpoint = (patch: Partial<typeof endpoint>) => (endpoint = { ...endpoint, ...patch, etag: `"w${Number(endpoint.etag.slice(2, -1)) + 1}"` });
  const statuses = { activate: "active", pause: "paused", archive: "archived", restore: "draft" } as const;
  const supportGrant = (status: string, body: Record<string, unknown>) => ({
    grantId: "sg_1",
    gameId: GAME,
    playerId: "p1",
    kind: "coins",
    rewardId: "gold",
    name: "Gold",
    amount: 5000,
    reason: "outage",
    requestedBy: "sue",
    status,
    approvalRequired: true,
    decidedBy: status === "pending" ? null : (body.actor ?? null),
    decisionReason: status === "pending" ? null : (body.reason ?? null),
    requestedAt: at,
    decidedAt: status === "pending" ? null : at,
    expiresAt: at,
  });

  const offer = { offerId: OFFER, instanceId: "i1", playerId: "p1", gameId: GAME, name: "Audit offer", description: "", status: "surfaced", realTime: false, rewards: definitionInput.rewards, createdAt: at, expiresAt: at };
  const playerState = {
    gameId: GAME,
    playerId: "p1",
    snapshot: { _id: `${GAME}:p1`, gameId: GAME, playerId: "p1", username: "", daysInGame: 0, loginStreak: 0, trustScore: 0, currencies: {}, levels: {} },
    playerData: { gameId: GAME, playerId: "p1", currencies: {} },
    offers: [{ ...offer, events: [] }],
    ledger: [],
    supportGrants: [],
    referrals: [],
    connected: false,
  };
  const bulkJob = (status: string, body: Record<string, unknown>) => ({
    jobId: "bc_1",
    gameId: GAME,
    source: "list",
    reason: "outage",
    requestedBy: "sue",
    status,
    preview: { players: 2, totalAmount: 200, kind: "coins", rewardId: "gold", name: "Gold", amount: 100, invalid: 0, invalidSample: [], duplicates: 0, duplicateSample: [], unknown: 0, unknownSample: [] },
    progress: { granted: 0, remaining: 2, cancelled: 0, total: 2 },
    decidedBy: status === "running" || status === "rejected" ? (body.actor ?? null) : null,
    decisionReason: status === "running" || status === "rejected" ? (body.reason ?? null) : null,
    cancelledBy: status === "cancelled" ? (body.actor ?? null) : null,
    requestedAt: at,
    decidedAt: null,
    expiresAt: at,
    finishedAt: null,
    resultDeletedAt: null,
  });

  const answer = (method: string, path: string, body: Record<string, unknown>): unknown => {
    const hooks = `/v1/admin/games/${GAME}/webhooks`;
    const definitions = `/v1/admin/games/${GAME}/definitions`;
    if (method === "POST" && path === definitions) return { definition, before: null, changed: true, job: null };
    if (method === "PUT" && path === `${definitions}/${OFFER}`) return changeDefinition({ name: body.name });
    const status = new RegExp(`^${definitions}/${OFFER}/(activate|pause|archive|restore)$`).exec(path);
    if (method === "POST" && status) return changeDefinition({ status: statuses[status[1] as keyof typeof statuses] });
    if (method === "GET" && path === hooks) return { endpoints: [endpoint], stats: { lagSeconds: 0, oldestUndeliveredAt: null, pending: 0, failed: 0 } };
    if (method === "POST" && path === `${hooks}/endpoints`) return { ...endpoint, secret: "whsec_fake" };
    if (method === "PATCH" && path === `${hooks}/endpoints/${ENDPOINT}`) return changeEndpoint(body);
    if (method === "DELETE" && path === `${hooks}/endpoints/${ENDPOINT}`) return { deleted: true };
    if (method === "POST" && path === `${hooks}/endpoints/${ENDPOINT}/rotate-secret`) {
      const rotated = changeEndpoint({ previousSecretExpiresAt: new Date(Date.now() + 86_400_000).toISOString() });
      return { endpointId: ENDPOINT, secret: "whsec_rotated", previousSecretExpiresAt: rotated.previousSecretExpiresAt, etag: rotated.etag };
    }
    if (method === "POST" && path === `${hooks}/endpoints/${ENDPOINT}/test`) return { messageId: "msg_test", deliveryId: 8 };
    if (method === "POST" && (path === `${hooks}/deliveries/7/replay` || path === `${hooks}/replay`)) return { replayed: 1 };
    if (method === "POST" && path === `/v1/admin/games/${GAME}/players/p1/support-grants`) return { grant: supportGrant("pending", body) };
    if (path === `/v1/admin/games/${GAME}/support-thresholds`) return method === "PUT" ? body : { rules: [] };
    if (method === "GET" && path === `/v1/admin/games/${GAME}/support-grants`) return { grants: [supportGrant("pending", {})], pending: 1 };
    const player = `/v1/admin/games/${GAME}/players/p1`;
    if (method === "GET" && path === player) return playerState;
    const acted = new RegExp(`^${player}/offers/i1/(expire|revoke|make-claimable|extend)$`).exec(path);
    if (method === "POST" && acted) return { offer: { ...offer, status: acted[1] === "make-claimable" ? "claimable" : acted[1] === "extend" ? "surfaced" : "expired" }, changed: true };
    if (method === "POST" && path === `${player}/offers`) return { offer: { ...offer, instanceId: "i2" } };
    if (method === "POST" && path === `${player}/deliveries/replay`) return { replayed: 1 };
    if (method === "POST" && path === `/v1/admin/games/${GAME}/bulk-compensations`) return { job: bulkJob("pending", body) };
    if (method === "GET" && path === `/v1/admin/games/${GAME}/bulk-compensations/bc_1`) return { job: bulkJob("pending", {}) };
    const bulkActed = new RegExp(`^/v1/admin/games/${GAME}/bulk-compensations/bc_1/(approve|reject|cancel)$`).exec(path);
    if (method === "POST" && bulkActed) return { job: bulkJob(({ approve: "running", reject: "rejected", cancel: "cancelled" } as const)[bulkActed[1] as "approve"], body) };
    const decided = new RegExp(`^/v1/admin/games/${GAME}/support-grants/sg_1/(approve|reject)$`).exec(path);
    if (method === "POST" && decided) return { grant: supportGrant(decided[1] === "approve" ? "granted" : "rejected", body) };
    return undefined;
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (text += chunk));
    request.on("end", () => {
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      const found = answer(request.method ?? "GET", new URL(request.url ?? "/", "http://offers.test").pathname, body);
      response.writeHead(found === undefined ? 404 : 200, { "content-type": "application/json" });
      response.end(JSON.stringify(found ?? { message: "not-found" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    definitionEtag: () => definition.etag,
    endpointEtag: () => endpoint.etag,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
