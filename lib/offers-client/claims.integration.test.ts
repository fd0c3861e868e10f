/**
 * The SDK's claims against a listening offers service: when the answer of a claim is lost on the way
 * back, the SDK retries with the same Idempotency-Key and learns the claim succeeded (200, the same
 * rewards), and the reward is granted once.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { rewardLedger } from "../offers/db/schema";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { createGameClient, createServerClient, OffersApiError } from "./index";

const coins = { kind: "coins" as const, rewardId: "coins", name: "Coins", amount: 40 };

/** A fetch whose first claim reaches the service but whose answer never comes back. */
function losingFirstAnswer() {
  const keys: string[] = [];
  let lost = 0;
  const lossy: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    const key = headers.get("idempotency-key");
    if (key) keys.push(key);
    const response = await fetch(input, init);
    if (key && lost === 0) {
      lost++;
      await response.arrayBuffer();
      throw new TypeError("fetch failed: the connection was reset");
    }
    return response;
  };
  return { fetch: lossy, keys };
}

describe.each(testDatabaseTargets())("SDK claims on %s", (target) => {
  let t: OffersTestContext;
  let baseUrl: string;
  let n = 0;

  beforeAll(async () => {
    t = await startOffersTestApp(target);
    baseUrl = `${await t.app.listen({ host: "127.0.0.1", port: 0 })}/v1`;
  });
  afterAll(async () => t?.close());

  const claimable = async (playerId: string) => {
    const offerId = `sdk-gift-${++n}`;
    const api = t.apiHeaders();
    expect((await t.inject({ method: "PUT", url: `/v1/offers/definitions/${offerId}`, headers: api, payload: { name: offerId, rewards: [coins], durationSeconds: 86_400 } })).statusCode).toBe(200);
    const { body } = await t.post("/v1/player/offers/assign", { playerId, offerId }, api);
    await t.post("/v1/client/player/campaigns", { viewingCampaigns: true }, { "x-game-jwt": await t.jwt(playerId) });
    return body.instanceId as string;
  };
  const grants = async (instanceId: string) => (await t.database.db.select().from(rewardLedger).where(eq(rewardLedger.sourceId, instanceId))).length;

  it("a server claim whose answer was lost is retried with the same key and answers the rewards, granted once", async () => {
    const instanceId = await claimable("sdk-p1");
    const lossy = losingFirstAnswer();
    const server = createServerClient({ baseUrl, clientId: t.game.clientId, apiKey: t.game.apiKey, fetch: lossy.fetch });
    const answer = await server.claim({ kind: "offer", instanceId, playerId: "sdk-p1" });
    expect(answer.rewards).toEqual([coins]);
    expect(lossy.keys).toHaveLength(2);
    expect(lossy.keys[0]).toBe(lossy.keys[1]);
    expect(await grants(instanceId)).toBe(1);
    // A new claim() is a new key: the interface's rule answers.
    await expect(server.claim({ kind: "offer", instanceId, playerId: "sdk-p1" })).rejects.toMatchObject({ status: 409, code: "offer-not-claimable" });
  });

  it("a player's claim whose answer was lost succeeds on the retry instead of answering offer-not-claimable", async () => {
    const instanceId = await claimable("sdk-p2");
    const lossy = losingFirstAnswer();
    const game = createGameClient({ baseUrl, getJwt: () => t.jwt("sdk-p2"), fetch: lossy.fetch });
    await expect(game.claim({ kind: "offer", instanceId })).resolves.toEqual({ message: "Rewards claimed" });
    expect(lossy.keys).toHaveLength(2);
    expect(lossy.keys[0]).toBe(lossy.keys[1]);
    expect(await grants(instanceId)).toBe(1);
  });

  it("a game server's grant whose answer was lost is retried with the same key and granted once; its offer acts answer the offer", async () => {
    await claimable("sdk-p4");
    // An offer the player has not viewed yet (viewed, an offer without conditions is claimable at once).
    const api = t.apiHeaders();
    expect((await t.inject({ method: "PUT", url: "/v1/offers/definitions/sdk-open", headers: api, payload: { name: "Open", rewards: [coins], durationSeconds: 3600 } })).statusCode).toBe(200);
    const instanceId = (await t.post("/v1/player/offers/assign", { playerId: "sdk-p4", offerId: "sdk-open" }, api)).body.instanceId as string;
    const lossy = losingFirstAnswer();
    const server = createServerClient({ baseUrl, clientId: t.game.clientId, apiKey: t.game.apiKey, fetch: lossy.fetch });
    const { grant } = await server.grantReward({ playerId: "sdk-p4", kind: "coins", rewardId: "coins", amount: 75, reason: "Refund of order 981" });
    expect(grant).toMatchObject({ status: "granted", amount: 75, requestedBy: `game-server:${t.game.clientId}` });
    expect(lossy.keys).toHaveLength(2);
    expect(lossy.keys[0]).toBe(lossy.keys[1]);
    expect(await grants(grant.grantId)).toBe(1);

    const later = new Date(t.clock.now().getTime() + 86_400_000 * 2).toISOString();
    await expect(server.extendOffer(instanceId, { playerId: "sdk-p4", reason: "Event runs longer", expiresAt: later })).resolves.toMatchObject({ changed: true, offer: { expiresAt: later } });
    await expect(server.actOnOffer(instanceId, "make-claimable", { playerId: "sdk-p4", reason: "Done offline" })).resolves.toMatchObject({ changed: true, offer: { status: "claimable" } });
    await expect(server.actOnOffer(instanceId, "expire", { playerId: "sdk-p4", reason: "Too late" })).rejects.toMatchObject({ status: 409, code: "offer-transition-refused" });
  });

  it("does not retry a refused claim", async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const server = createServerClient({ baseUrl, clientId: t.game.clientId, apiKey: t.game.apiKey, fetch: counting });
    const refused = await server.claim({ kind: "offer", instanceId: "no-such-instance", playerId: "sdk-p3" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OffersApiError);
    expect((refused as OffersApiError).status).toBe(404);
    expect(calls).toBe(1);
  });
});
