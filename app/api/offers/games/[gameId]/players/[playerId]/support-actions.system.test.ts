// Support's acts on a player's offers and deliveries through the portal's routes (test-support/portal/test-portal.ts)
// in front of the real offers service (its own process, demo game): the support role on every route, the actor the
// signed-in user, each act audited with its reason, before and after (a repeat once), the service's refusals passed
// through with their codes, and bad input answered 4xx with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditEntry } from "@/lib/portal/audit-store";
import { startOffersServiceForTests, startPortalTest, type OffersServiceForTests, type PortalTest } from "@/test-support/portal/test-portal";
const expire = await import("./offers/[instanceId]/expire/route");
const revoke = await import("./offers/[instanceId]/revoke/route");
const extend = await import("./offers/[instanceId]/extend/route");
const makeClaimable = await import("./offers/[instanceId]/make-claimable/route");
const reoffer = await import("./offers/route");
const deliveries = await import("./deliveries/route");
const resend = await import("./deliveries/replay/route");
const playerRoute = await import("./route");
const { GET: audit } = await import("@/app/api/audit/route");

const GAME = "demo-game";
let offers: OffersServiceForTests;
let portal: PortalTest;
let sam: Record<string, string>, eve: Record<string, string>, admin: Record<string, string>;
let players = 0;

const req = (url: string, init: RequestInit & { json?: unknown } = {}) => {
  const { json, ...rest } = init;
  return new Request(`http://portal.test${url}`, {
    ...rest,
    headers: { ...(json !== undefined ? { "Content-Type": "application/json" } : {}), ...(rest.headers as Record<string, string>) },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
};
const at = <T extends Record<string, string>>(params: T) => ({ params: Promise.resolve(params) });
const base = (playerId: string) => `/api/offers/games/${GAME}/players/${playerId}`;

/** A new player of the demo game with one offer in play (surfaced): its id and the offer's instance id. */
async function playerWithOffer(offerId = "flash-sale"): Promise<{ playerId: string; instanceId: string }> {
  players += 1;
  const playerId = `actions-${Date.now().toString(36)}-${players}`;
  const post = (path: string, body: unknown) => fetch(`${offers.baseUrl}/v1${path}`, { method: "POST", headers: { ...offers.apiHeaders, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect((await post("/player/snapshot", { playerId, username: `Actions ${players}` })).status).toBe(200);
  const assigned = await post("/player/offers/assign", { playerId, offerId });
  expect(assigned.status).toBe(200);
  return { playerId, instanceId: (await assigned.json()).instanceId };
}

async function offerState(playerId: string, instanceId: string) {
  const res = await playerRoute.GET(req(base(playerId), { headers: sam }), at({ gameId: GAME, playerId }));
  expect(res.status).toBe(200);
  return (await res.json()).offers.find((o: { instanceId: string }) => o.instanceId === instanceId);
}

async function auditOf(target: string): Promise<AuditEntry[]> {
  const res = await audit(req("/api/audit?limit=200", { headers: admin }));
  expect(res.status).toBe(200);
  return ((await res.json()).entries as AuditEntry[]).filter((e) => e.target.startsWith(target));
}

beforeAll(async () => {
  offers = await startOffersServiceForTests();
  portal = await startPortalTest({ settings: (s) => ({ ...s, offersAdmin: () => offers.admin }) });
  sam = await portal.signIn({ id: "sam", roles: ["support"] });
  eve = await portal.signIn({ id: "eve", roles: ["liveops"] });
  admin = await portal.signIn({ id: "admin", roles: ["admin"] });
}, 120_000);
afterAll(async () => {
  await portal?.close();
  await offers?.close();
});

describe("support acts on a player's offers through the portal", () => {
  it("need the support role on every route, naming it", async () => {
    const { playerId, instanceId } = await playerWithOffer();
    const params = { gameId: GAME, playerId, instanceId };
    const body = { reason: "not mine to do" };
    for (const res of [
      await expire.POST(req(`${base(playerId)}/offers/${instanceId}/expire`, { method: "POST", headers: eve, json: body }), at(params)),
      await revoke.POST(req(`${base(playerId)}/offers/${instanceId}/revoke`, { method: "POST", headers: eve, json: body }), at(params)),
      await makeClaimable.POST(req(`${base(playerId)}/offers/${instanceId}/make-claimable`, { method: "POST", headers: eve, json: body }), at(params)),
      await extend.POST(req(`${base(playerId)}/offers/${instanceId}/extend`, { method: "POST", headers: eve, json: { ...body, expiresAt: new Date(Date.now() + 86_400_000).toISOString() } }), at(params)),
      await reoffer.POST(req(`${base(playerId)}/offers`, { method: "POST", headers: eve, json: { offerId: "welcome-pack", ...body } }), at({ gameId: GAME, playerId })),
      await deliveries.GET(req(`${base(playerId)}/deliveries`, { headers: eve }), at({ gameId: GAME, playerId })),
      await resend.POST(req(`${base(playerId)}/deliveries/replay`, { method: "POST", headers: eve, json: body }), at({ gameId: GAME, playerId })),
    ]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ message: "forbidden", requiredRole: "support" });
    }
    expect((await offerState(playerId, instanceId)).status).toBe("surfaced");
    expect(await auditOf(`${GAME}/${playerId}`)).toEqual([]);
  });

  it("expires an offer as the signed-in user: the history names sam and the reason, the audit keeps before and after; a repeat is not audited again", async () => {
    const { playerId, instanceId } = await playerWithOffer();
    const send = () => expire.POST(req(`${base(playerId)}/offers/${instanceId}/expire`, { method: "POST", headers: sam, json: { reason: "Stuck after the outage" } }), at({ gameId: GAME, playerId, instanceId }));
    const res = await send();
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ changed: true, offer: { instanceId, status: "expired" } });
    const offer = await offerState(playerId, instanceId);
    expect(offer.events.at(-1)).toMatchObject({ type: "expired", cause: "support", actor: "sam", reason: "Stuck after the outage" });
    expect((await (await send()).json()).changed).toBe(false);
    const entries = await auditOf(`${GAME}/${playerId}/${instanceId}`);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "support-offer.expire", actor: "sam", targetType: "offer-instance", before: { status: "surfaced" }, after: { status: "expired" } });
    expect(entries[0]!.summary).toContain("Stuck after the outage");
  });

  it("extends, makes claimable and revokes, and passes the service's refusals through with their codes", async () => {
    const { playerId, instanceId } = await playerWithOffer();
    const params = at({ gameId: GAME, playerId, instanceId });
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const extended = await extend.POST(req(`${base(playerId)}/offers/${instanceId}/extend`, { method: "POST", headers: sam, json: { reason: "More time", expiresAt: later } }), params);
    expect(extended.status).toBe(200);
    expect((await extended.json()).offer.expiresAt).toBe(later);
    const far = await extend.POST(req(`${base(playerId)}/offers/${instanceId}/extend`, { method: "POST", headers: sam, json: { reason: "More time", expiresAt: new Date(Date.now() + 40 * 86_400_000).toISOString() } }), params);
    expect(far.status).toBe(400);
    expect(await far.json()).toMatchObject({ message: "expiry-out-of-range", detail: expect.stringContaining("30 days") });

    expect((await makeClaimable.POST(req(`${base(playerId)}/offers/${instanceId}/make-claimable`, { method: "POST", headers: sam, json: { reason: "Completed offline" } }), params)).status).toBe(200);
    const refused = await expire.POST(req(`${base(playerId)}/offers/${instanceId}/expire`, { method: "POST", headers: sam, json: { reason: "Too late" } }), params);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: "offer-transition-refused" });
    const revoked = await revoke.POST(req(`${base(playerId)}/offers/${instanceId}/revoke`, { method: "POST", headers: sam, json: { reason: "Granted by mistake" } }), params);
    expect(revoked.status).toBe(200);
    expect((await offerState(playerId, instanceId)).events.map((e: { type: string }) => e.type)).toEqual(["surfaced", "extended", "claimable", "revoked"]);
    expect((await auditOf(`${GAME}/${playerId}/${instanceId}`)).map((e) => e.action).sort()).toEqual(["support-offer.extend", "support-offer.make-claimable", "support-offer.revoke"]);
  });

  it("re-offers a definition, refusing a second while it is open; re-sends the player's deliveries", async () => {
    const { playerId } = await playerWithOffer();
    const send = () => reoffer.POST(req(`${base(playerId)}/offers`, { method: "POST", headers: sam, json: { offerId: "welcome-pack", reason: "Missed it in the outage" } }), at({ gameId: GAME, playerId }));
    const first = await send();
    expect(first.status).toBe(200);
    const { offer } = await first.json();
    expect(offer).toMatchObject({ offerId: "welcome-pack", status: "surfaced" });
    const again = await send();
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ message: "offer-already-assigned" });
    expect((await offerState(playerId, offer.instanceId)).events[0]).toMatchObject({ cause: "support", actor: "sam" });

    const listed = await deliveries.GET(req(`${base(playerId)}/deliveries`, { headers: sam }), at({ gameId: GAME, playerId }));
    expect(listed.status).toBe(200);
    expect((await listed.json()).deliveries).toEqual([]);
    const sent = await resend.POST(req(`${base(playerId)}/deliveries/replay`, { method: "POST", headers: sam, json: { reason: "Game server lost them" } }), at({ gameId: GAME, playerId }));
    expect(sent.status).toBe(200);
    expect(await sent.json()).toEqual({ replayed: 0 });
    const one = await resend.POST(req(`${base(playerId)}/deliveries/replay`, { method: "POST", headers: sam, json: { reason: "Lost", deliveryId: 123456 } }), at({ gameId: GAME, playerId }));
    expect(one.status).toBe(404);
    expect(await one.json()).toMatchObject({ message: "webhook-delivery-not-found" });
    expect((await auditOf(`${GAME}/${playerId}`)).map((e) => e.action).sort()).toEqual(["support-deliveries.resend", "support-offer.reoffer"]);
  });

  it("answers bad input 4xx and changes nothing: NUL, a 10,000-character reason, an unknown instance, the other environment's ids", async () => {
    const { playerId, instanceId } = await playerWithOffer();
    const before = await offerState(playerId, instanceId);
    const params = at({ gameId: GAME, playerId, instanceId });
    const url = `${base(playerId)}/offers/${instanceId}/expire`;
    const cases: Array<[string, Promise<Response>, number, string]> = [
      ["NUL", expire.POST(req(url, { method: "POST", headers: sam, json: { reason: "a\u0000b" } }), params), 400, "invalid-request"],
      ["10,000 characters", expire.POST(req(url, { method: "POST", headers: sam, json: { reason: "x".repeat(10_000) } }), params), 400, "invalid-request"],
      ["an actor in the body", expire.POST(req(url, { method: "POST", headers: sam, json: { reason: "r", actor: "someone-else" } }), params), 400, "invalid-request"],
      ["unknown instance", expire.POST(req(`${base(playerId)}/offers/no-such/expire`, { method: "POST", headers: sam, json: { reason: "r" } }), at({ gameId: GAME, playerId, instanceId: "no-such" })), 404, "offer-not-found"],
      ["the test environment", expire.POST(req(`${url}?environment=test`, { method: "POST", headers: sam, json: { reason: "r" } }), params), 404, "player-not-found"],
    ];
    for (const [name, pending, status, code] of cases) {
      const res = await pending;
      expect(res.status, name).toBe(status);
      expect((await res.json()).message, name).toBe(code);
    }
    expect(await offerState(playerId, instanceId)).toEqual(before);
    expect(await auditOf(`${GAME}/${playerId}`)).toEqual([]);
  });
});
