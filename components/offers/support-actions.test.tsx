// @vitest-environment jsdom
// Support acts on a player's offers from the player's page: each offer in play has the actions its status
// allows; a dialog asks for the reason (and an extension's new expiry) and sends once, even on a double
// click; the offer shows its new state without a reload. Re-send deliveries sends all of them or one.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import type { AdminOffer, AdminPlayerState } from "./api";
import { PlayerView } from "./player-view";

const PLAYER = "/api/offers/games/demo-game/players/tester-1";
const inAnHour = new Date(Date.now() + 3600_000).toISOString();

const offer = (instanceId: string, status: AdminOffer["status"], events: AdminOffer["events"] = []): AdminOffer => ({
  offerId: `offer-${instanceId}`,
  instanceId,
  playerId: "tester-1",
  gameId: "demo-game",
  name: `Pack ${instanceId}`,
  description: "",
  status,
  realTime: false,
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 10 }],
  createdAt: "2026-12-06T10:00:00.000Z",
  expiresAt: inAnHour,
  events,
});

const stateWith = (...offers: AdminOffer[]): AdminPlayerState => ({
  gameId: "demo-game",
  playerId: "tester-1",
  snapshot: { _id: "s1", gameId: "demo-game", playerId: "tester-1", username: "Tess", daysInGame: 1, loginStreak: 1, trustScore: 50, currencies: {}, levels: {} },
  playerData: { gameId: "demo-game", playerId: "tester-1", currencies: {} },
  offers,
  ledger: [],
  referrals: [],
  supportGrants: [],
  connected: false,
});

class SilentEventSource {
  static readonly CLOSED = 2;
  readyState = 0;
  onerror: (() => void) | null = null;
  addEventListener() {}
  close() {}
}

beforeEach(() => vi.stubGlobal("EventSource", SilentEventSource));
afterEach(() => vi.unstubAllGlobals());

const cardOf = async (instanceId: string) => (await screen.findAllByTestId("offer")).find((el) => el.dataset.instanceId === instanceId)!;

describe("support actions on a player's offers", () => {
  it("shows each offer the actions its status allows: a claimable one only Revoke, a claimed one none", async () => {
    fakeApi({ [`GET ${PLAYER}`]: { body: stateWith(offer("a", "surfaced"), offer("b", "claimable"), offer("c", "inQueue"), offer("d", "claimed")) } });
    renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="sam" />, { url: "/offers/demo-game/tester-1" });
    const names = (card: HTMLElement) => within(card).queryAllByRole("button").map((b) => b.textContent);
    expect(names(await cardOf("a"))).toEqual(["Make claimable…", "Extend…", "Expire…", "Revoke…"]);
    expect(names(await cardOf("b"))).toEqual(["Revoke…"]);
    expect(names(await cardOf("c"))).toEqual(["Expire…", "Revoke…", "Extend…"]);
    expect(within(await cardOf("d")).queryByTestId("offer-actions")).toBeNull();
  });

  it("expires an offer once with a reason, even on a double click, and shows it expired without a reload", async () => {
    let expired = false;
    const held = heldAnswer({ body: { offer: { ...offer("a", "expired") }, changed: true } });
    const api = fakeApi({
      [`GET ${PLAYER}`]: () => ({
        body: expired
          ? stateWith(offer("a", "expired", [{ seq: 2, type: "expired", fromStatus: "surfaced", toStatus: "expired", cause: "support", at: inAnHour, actor: "sam", reason: "Stuck after the outage" }]))
          : stateWith(offer("a", "surfaced")),
      }),
      [`POST ${PLAYER}/offers/a/expire`]: async () => {
        const answer = await held.handler();
        expired = true;
        return answer;
      },
    });
    const user = userEvent.setup();
    renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="sam" />, { url: "/offers/demo-game/tester-1" });
    await user.click(within(await cardOf("a")).getByTestId("offer-action-expire"));
    await user.click(screen.getByTestId("offer-action-submit"));
    expect(await screen.findByText("A reason is required.")).toBeTruthy();
    // Over-long input is refused where it is typed, the limit said in words.
    fireEvent.input(screen.getByTestId("offer-action-reason"), { target: { value: "x".repeat(501) } });
    await user.click(screen.getByTestId("offer-action-submit"));
    expect(await screen.findByText("A reason can be at most 500 characters.")).toBeTruthy();
    expect(api.callsTo("POST", `${PLAYER}/offers/a/expire`)).toHaveLength(0);

    await user.clear(screen.getByTestId("offer-action-reason"));
    await user.type(screen.getByTestId("offer-action-reason"), "Stuck after the outage");
    await user.dblClick(screen.getByTestId("offer-action-submit"));
    expect(screen.getByTestId("offer-action-submit")).toHaveProperty("disabled", true);
    held.release();
    expect((await screen.findByTestId("action-outcome")).textContent).toBe("Pack a expired.");
    await waitFor(async () => expect((await cardOf("a")).dataset.status).toBe("expired"));
    expect(screen.getByTestId("event-note").textContent).toContain("by sam: Stuck after the outage");
    const posts = api.callsTo("POST", `${PLAYER}/offers/a/expire`);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toEqual({ reason: "Stuck after the outage" });
  });

  it("extends to a new expiry within 30 days, refusing a farther one where it is typed", async () => {
    const api = fakeApi({
      [`GET ${PLAYER}`]: { body: stateWith(offer("a", "viewed")) },
      [`POST ${PLAYER}/offers/a/extend`]: (call) => ({ body: { offer: { ...offer("a", "viewed"), expiresAt: (call.json as { expiresAt: string }).expiresAt }, changed: true } }),
    });
    const user = userEvent.setup();
    renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="sam" />, { url: "/offers/demo-game/tester-1" });
    await user.click(within(await cardOf("a")).getByTestId("offer-action-extend"));
    const field = screen.getByTestId<HTMLInputElement>("offer-action-expires-at");
    // A day after the current expiry is proposed.
    expect(Date.parse(field.value)).toBeGreaterThan(Date.parse(inAnHour));
    await user.type(screen.getByTestId("offer-action-reason"), "Lost two days to the outage");
    fireEvent.input(field, { target: { value: "2099-01-01T12:00" } });
    await user.click(screen.getByTestId("offer-action-submit"));
    expect(await screen.findByText(/^The new expiry must be .* at most 30 days from now\.$/)).toBeTruthy();
    expect(api.callsTo("POST", `${PLAYER}/offers/a/extend`)).toHaveLength(0);

    const twoDays = new Date(Date.now() + 2 * 24 * 3600_000);
    const local = new Date(twoDays.getTime() - twoDays.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    fireEvent.input(field, { target: { value: local } });
    await user.click(screen.getByTestId("offer-action-submit"));
    expect((await screen.findByTestId("action-outcome")).textContent).toMatch(/^Pack a now expires /);
    const [post] = api.callsTo("POST", `${PLAYER}/offers/a/extend`);
    expect(post!.json).toEqual({ reason: "Lost two days to the outage", expiresAt: new Date(local).toISOString() });
  });

  it("re-sends one of the player's deliveries, with a reason", async () => {
    const delivery = {
      deliveryId: 41,
      endpointId: "ep_1",
      url: "https://hooks.example.com/rewards",
      messageId: "evt_1",
      eventType: "reward.granted",
      status: "delivered",
      playerId: "tester-1",
      rewards: null,
      attempts: 1,
      nextAttemptAt: null,
      lastStatusCode: 200,
      lastError: null,
      lastLatencyMs: 12,
      eventAt: "2026-12-06T10:00:00.000Z",
      deliveredAt: "2026-12-06T10:00:01.000Z",
      failedAt: null,
      attemptLog: [],
    };
    const api = fakeApi({
      [`GET ${PLAYER}`]: { body: stateWith() },
      [`GET ${PLAYER}/deliveries`]: { body: { deliveries: [delivery], nextBefore: null } },
      [`POST ${PLAYER}/deliveries/replay`]: { body: { replayed: 1 } },
    });
    const user = userEvent.setup();
    renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="sam" />, { url: "/offers/demo-game/tester-1" });
    await waitFor(() => expect(screen.getByTestId("resend-deliveries")).toHaveProperty("disabled", false));
    await user.click(screen.getByTestId("resend-deliveries"));
    await screen.findByRole("option", { name: /#41/ });
    await user.selectOptions(screen.getByTestId("resend-which"), "41");
    await user.type(screen.getByTestId("resend-reason"), "The game server lost it");
    await user.click(screen.getByTestId("resend-submit"));
    expect((await screen.findByTestId("action-outcome")).textContent).toBe("1 delivery is on its way to the game server again.");
    expect(api.callsTo("POST", `${PLAYER}/deliveries/replay`)[0]!.json).toEqual({ reason: "The game server lost it", deliveryId: 41 });
  });
});
