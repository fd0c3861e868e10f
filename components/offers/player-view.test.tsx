// @vitest-environment jsdom
// A player's page in the test environment: the player's state and the live view's stream are the test
// environment's, and the way back keeps it.
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
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
