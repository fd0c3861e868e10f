// @vitest-environment jsdom
// A player's page: in the test environment the player's state and the live view's stream are the test
// environment's, and the way back keeps it; support grants a compensation once, and never decides its own.
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import userEvent from "@testing-library/user-event";
import { OffersEnvironmentProvider } from "@/components/offers-environment/offers-environment";
import type { AdminPlayerState } from "./api";
import { PlayerView } from "./player-view";

const state: AdminPlayerState = {
  gameId: "demo-game",
  playerId: "tester-1",
  snapshot: { _id: "s1", gameId: "demo-game", playerId: "tester-1", username: "Tess", daysInGame: 1, loginStreak: 1, trustScore: 50, currencies: {}, levels: {} },
  playerData: { gameId: "demo-game", playerId: "tester-1", currencies: {} },
  offers: [],
  ledger: [],
  referrals: [],
  supportGrants: [],
  connected: false,
};

/** The browser's EventSource, recording the addresses opened (jsdom has none). */
class RecordingEventSource {
  static readonly CLOSED = 2;
  static urls: string[] = [];
  readyState = 0;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    RecordingEventSource.urls.push(url);
  }
  addEventListener() {}
  close() {
    this.readyState = RecordingEventSource.CLOSED;
  }
}

afterEach(() => {
  RecordingEventSource.urls = [];
});

describe("a player's page in the test environment", () => {
  it("reads the test player and watches the test environment's stream", async () => {
    vi.stubGlobal("EventSource", RecordingEventSource);
    const api = fakeApi({ "GET /api/offers/games/demo-game/players/tester-1": { body: state } });
    renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <PlayerView gameId="demo-game" playerId="tester-1" />
      </OffersEnvironmentProvider>,
      { url: "/offers/demo-game/tester-1?env=test" },
    );
    await waitFor(() => expect(screen.getByTestId("player-title").textContent).toBe("Tess tester-1"));
    // The live log scrolls: the keyboard reaches it.
    expect(screen.getByRole("list", { name: "Live events" }).tabIndex).toBe(0);
    expect(api.callsTo("GET", "/api/offers/games/demo-game/players/tester-1")[0]!.url).toContain("environment=test");
    expect(RecordingEventSource.urls).toEqual(["/api/offers/games/demo-game/players/tester-1/watch?environment=test"]);
    expect(screen.getByRole("link", { name: "Offers" }).getAttribute("href")).toBe("/offers?game=demo-game&env=test");
    expect(screen.getByTestId("environment-label").textContent).toBe("Test environment");
  });
});

describe("support grants on a player's page", () => {
  const grant = {
    grantId: "sg_1",
    gameId: "demo-game",
    playerId: "tester-1",
    kind: "coins",
    rewardId: "gold",
    name: "Gold",
    amount: 5000,
    reason: "Double charge",
    requestedBy: "sam",
    status: "pending",
    approvalRequired: true,
    decidedBy: null,
    decisionReason: null,
    requestedAt: "2026-12-06T10:00:00.000Z",
    decidedAt: null,
    expiresAt: "2026-12-09T10:00:00.000Z",
  } as const;

  it("grants once with the dialog's Idempotency-Key, even on a double click, and says it waits for approval", async () => {
    vi.stubGlobal("EventSource", RecordingEventSource);
    const held = heldAnswer({ body: { grant } });
    const api = fakeApi({
      "GET /api/offers/games/demo-game/players/tester-1": { body: state },
      "POST /api/offers/games/demo-game/players/tester-1/support-grants": held.handler,
    });
    const user = userEvent.setup();
    renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="sam" />, { url: "/offers/demo-game/tester-1" });
    await waitFor(() => expect(screen.getByTestId("grant-compensation")).toHaveProperty("disabled", false));
    await user.click(screen.getByTestId("grant-compensation"));
    await user.type(screen.getByTestId("grant-reward-id"), "gold");
    await user.clear(screen.getByTestId("grant-amount"));
    await user.type(screen.getByTestId("grant-amount"), "5000");
    await user.click(screen.getByTestId("grant-submit"));
    // A reason is required: nothing is sent without one.
    expect(api.callsTo("POST", "/api/offers/games/demo-game/players/tester-1/support-grants")).toHaveLength(0);
    expect(await screen.findByText("A reason is required.")).toBeTruthy();
    await user.type(screen.getByTestId("grant-reason"), "Double charge");
    await user.dblClick(screen.getByTestId("grant-submit"));
    held.release();
    expect((await screen.findByTestId("grant-outcome")).textContent).toContain("waits for approval");
    const posts = api.callsTo("POST", "/api/offers/games/demo-game/players/tester-1/support-grants");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.json).toEqual({ kind: "coins", rewardId: "gold", amount: 5000, reason: "Double charge" });
    expect(posts[0]!.headers["idempotency-key"]).toMatch(/.{8,}/);
  });

  it("offers Approve and Reject of a pending grant to anyone but its requester", async () => {
    vi.stubGlobal("EventSource", RecordingEventSource);
    fakeApi({ "GET /api/offers/games/demo-game/players/tester-1": { body: { ...state, supportGrants: [grant] } } });
    const { unmount } = renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="sam" />, { url: "/offers/demo-game/tester-1" });
    expect(await screen.findByText("Someone else decides")).toBeTruthy();
    expect(screen.queryByTestId("grant-approve")).toBeNull();
    unmount();
    renderInPortal(<PlayerView gameId="demo-game" playerId="tester-1" me="lee" />, { url: "/offers/demo-game/tester-1" });
    expect(await screen.findByTestId("grant-approve")).toBeTruthy();
    expect(screen.getByTestId("grant-reject")).toBeTruthy();
  });
});
