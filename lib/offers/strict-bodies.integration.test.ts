/**
 * Authoring and management bodies refuse a key they do not have, at any depth, with 400 naming it
 * (a misspelt `rolout: 10` must not be stored as rollout 100 and go live to everyone); nothing is
 * stored. The interface's game-client and game-server bodies ignore unknown fields, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemoryEventBus } from "../events";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { createEventStream } from "./sse";
import { startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";

const ADMIN_TOKEN = "test-admin-token-0123456789";
const reward = { kind: "coins", rewardId: "gold", name: "Gold", amount: 5 };
const definition = { name: "Strict", rewards: [reward], durationSeconds: 600, audience: { all: [] } };
const variants = [
  { variantId: "a", weight: 1, rewards: [reward] },
  { variantId: "b", weight: 1, rewards: [reward] },
];

interface Case {
  what: string;
  method: "POST" | "PUT" | "PATCH";
  url: string;
  auth: "admin" | "apiKey";
  body: object;
  /** Where the unknown key is. */
  path: Array<string | number>;
}

const cases: Case[] = [
  { what: "a misspelt rollout", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, rolout: 10 }, path: ["rolout"] },
  { what: "a misspelt limit", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, limits: { maxActivationPerPlayer: 3 } }, path: ["limits", "maxActivationPerPlayer"] },
  { what: "a misspelt schedule end", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, schedule: { endAt: "2027-01-01T00:00:00Z" } }, path: ["schedule", "endAt"] },
  { what: "an unknown reward key", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, rewards: [{ ...reward, imageUrl: "https://x.example/a.png" }] }, path: ["rewards", 0, "imageUrl"] },
  { what: "an unknown condition key", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, completionConditions: [{ kind: "spendCurrency", id: "gold", name: "Gold", amount: 5, currency: "gold" }] }, path: ["completionConditions", 0, "currency"] },
  { what: "an unknown key in a variant's reward", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, variants: [variants[0], { ...variants[1], rewards: [{ ...reward, qty: 2 }] }] }, path: ["variants", 1, "rewards", 0, "qty"] },
  { what: "an unknown variant key", method: "PUT", url: "/v1/offers/definitions/strict", auth: "apiKey", body: { ...definition, variants: [{ ...variants[0], share: 50 }, variants[1]] }, path: ["variants", 0, "share"] },
  { what: "an unknown currency key", method: "PUT", url: "/v1/currencies/gems", auth: "apiKey", body: { name: "Gems", image: "https://x.example/g.png", symbol: "G" }, path: ["symbol"] },
  { what: "an unknown webhook key", method: "POST", url: "/v1/webhooks/endpoints", auth: "apiKey", body: { url: "https://hooks.example.com/r", secret: "mine" }, path: ["secret"] },
  { what: "a key in the empty body of a secret rotation", method: "POST", url: "/v1/webhooks/endpoints/none/rotate-secret", auth: "apiKey", body: { keepOld: true }, path: ["keepOld"] },
  { what: "a misspelt rollout (admin create)", method: "POST", url: "/v1/admin/games/game-a/definitions", auth: "admin", body: { ...definition, offerId: "strict-admin", rolout: 10 }, path: ["rolout"] },
  { what: "a misspelt schedule end (admin replace)", method: "PUT", url: "/v1/admin/games/game-a/definitions/strict-admin", auth: "admin", body: { ...definition, schedule: { startsAt: null, endAt: null } }, path: ["schedule", "endAt"] },
  { what: "an unknown preview key", method: "POST", url: "/v1/admin/games/game-a/definitions/strict-admin/preview", auth: "admin", body: { playerId: "p", asOf: "now" }, path: ["asOf"] },
  { what: "an unknown audience count key", method: "POST", url: "/v1/admin/games/game-a/audience/count", auth: "admin", body: { audience: { all: [] }, rolout: 10 }, path: ["rolout"] },
  { what: "a misspelt budget", method: "PUT", url: "/v1/admin/games/game-a/rate-limits", auth: "admin", body: { clientPerMinute: 60, serverPerMinut: 600 }, path: ["serverPerMinut"] },
  { what: "an unknown webhook key (admin)", method: "POST", url: "/v1/admin/games/game-a/webhooks/endpoints", auth: "admin", body: { url: "https://hooks.example.com/r", enable: false }, path: ["enable"] },
  { what: "an unknown webhook patch key (admin)", method: "PATCH", url: "/v1/admin/games/game-a/webhooks/endpoints/none", auth: "admin", body: { enabled: false, paused: true }, path: ["paused"] },
  { what: "an unknown replay key (admin)", method: "POST", url: "/v1/admin/games/game-a/webhooks/replay", auth: "admin", body: { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z", status: "failed" }, path: ["status"] },
];

describe.each(testDatabaseTargets())("strict authoring bodies on %s", (target) => {
  let t: OffersTestContext;
  const headers = (auth: Case["auth"]) => (auth === "admin" ? { authorization: `Bearer ${ADMIN_TOKEN}` } : t.apiHeaders());

  beforeAll(async () => {
    const stream = createEventStream({ bus: new MemoryEventBus(), heartbeatMs: 60_000, staleTimeoutMs: 60_000 });
    t = await startOffersTestApp(target, { eventStream: stream });
    expect((await t.inject({ method: "POST", url: "/v1/admin/games/game-a/definitions", headers: headers("admin"), payload: { ...definition, offerId: "strict-admin" } })).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it.each(cases)("refuses $what on $method $url with 400 naming the key, and stores nothing", async (c) => {
    const before = await storedStateDigest(t.database.db);
    const res = await t.inject({ method: c.method, url: c.url, headers: { ...headers(c.auth), "if-match": "*" }, payload: c.body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ message: "invalid-request", issues: [{ path: c.path, message: `unknown key "${c.path.at(-1)}"` }] });
    expect(await storedStateDigest(t.database.db)).toBe(before);
  });

  it("still takes the interface's game-client and game-server bodies with fields it does not know", async () => {
    const api = t.apiHeaders();
    expect((await t.post("/v1/player/snapshot", { playerId: "tolerant", loginStreak: 2, favouriteColour: "green" }, api)).status).toBe(200);
    expect((await t.post("/v1/player/campaigns/refresh", { playerId: "tolerant", viewingCampaigns: false, locale: "fr" }, api)).status).toBe(200);
    expect((await t.post("/v1/player/offers/assign", { playerId: "tolerant", offerId: "strict-admin", reason: "test" }, api)).status).toBe(200);
    const jwt = { authorization: `Bearer ${await t.jwt("tolerant")}` };
    expect((await t.post("/v1/client/player/campaigns", { viewingCampaigns: true, screen: "shop" }, jwt)).status).toBe(200);
    expect((await t.post("/v1/auth/one_time_token/generate", { returnTo: "/shop" }, jwt)).status).toBe(200);
    expect((await t.post("/v1/referrals", { referrerId: "tolerant", refereeId: "friend", rewards: [{ ...reward, note: "x" }], channel: "link" }, api)).status).toBe(200);
  });
});
