// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { OffersEnvironmentProvider } from "@/components/offers-environment/offers-environment";
import { PLAYER_ID_RULE, SupportHome } from "./support-home";

const games = { body: { games: [{ gameId: "demo-game", name: "Demo", players: 3, maxOfferSlots: 3, currencies: [{ id: "gold", name: "Gold", image: "" }] }] } };
const cleo = { playerId: "demo-player-3", username: "Cleo", updatedAt: "2026-11-20T10:00:00Z" };

describe("the support dashboard's player finder", () => {
  it("searches as you type and opens the exact match", async () => {
    const api = fakeApi({
      "GET /api/offers/games": games, "GET /api/offers/games/demo-game/support-grants": { body: { grants: [], pending: 0 } },
      "GET /api/offers/games/demo-game/players": (call) => ({ body: { players: call.url.includes("q=cleo") ? [cleo] : [] } }),
    });
    const { user, router } = renderInPortal(<SupportHome initialGame="" initialQuery="" />);
    await waitFor(() => expect((screen.getByTestId("game-picker") as HTMLSelectElement).value).toBe("demo-game"));
    const open = screen.getByRole("button", { name: "Open player" }) as HTMLButtonElement;
    expect(open.disabled).toBe(true);
    await user.type(screen.getByTestId("player-search"), "cleo");
    expect(await screen.findByRole("link", { name: "demo-player-3" })).toBeTruthy();
    expect(api.callsTo("GET", "/api/offers/games/demo-game/players").at(-1)!.url).toContain("q=cleo");
    await user.click(open);
    expect(router.push).toHaveBeenCalledWith("/offers/demo-game/demo-player-3");
  });

  it("says the search's limit as soon as the text is past it, and asks the server nothing of it", async () => {
    const api = fakeApi({ "GET /api/offers/games": games, "GET /api/offers/games/demo-game/support-grants": { body: { grants: [], pending: 0 } }, "GET /api/offers/games/demo-game/players": { body: { players: [] } } });
    const { user, router } = renderInPortal(<SupportHome initialGame="demo-game" initialQuery="" />);
    await user.click(screen.getByTestId("player-search"));
    await user.paste("p".repeat(10_000));
    expect((await screen.findByRole("alert")).textContent).toBe("A player id or username can be at most 200 characters; this one has 10,000.");
    await user.click(screen.getByRole("button", { name: "Open player" }));
    expect(router.push).not.toHaveBeenCalled();
    expect(api.callsTo("GET", "/api/offers/games/demo-game/players").every((call) => !call.url.includes("ppp"))).toBe(true);
  });

  it.each(["player one", "🎮 gamer", "<script>alert(1)</script>"])("says the player-id rule in words instead of opening %s", async (typed) => {
    fakeApi({ "GET /api/offers/games": games, "GET /api/offers/games/demo-game/support-grants": { body: { grants: [], pending: 0 } }, "GET /api/offers/games/demo-game/players": { body: { players: [] } } });
    const { user, router } = renderInPortal(<SupportHome initialGame="demo-game" initialQuery="" />);
    await user.click(screen.getByTestId("player-search"));
    await user.paste(typed);
    await user.click(screen.getByRole("button", { name: "Open player" }));
    expect((await screen.findByRole("alert")).textContent).toBe(PLAYER_ID_RULE);
    expect(PLAYER_ID_RULE).toMatch(/^A player id is 1 to 200 characters: letters A to Z/);
    expect(router.push).not.toHaveBeenCalled();
  });

  it("opens a player found by a username that is no id", async () => {
    const aria = { playerId: "demo-player-1", username: "Aria Stone", updatedAt: "2026-11-20T10:00:00Z" };
    fakeApi({ "GET /api/offers/games": games, "GET /api/offers/games/demo-game/support-grants": { body: { grants: [], pending: 0 } }, "GET /api/offers/games/demo-game/players": (call) => ({ body: { players: call.url.includes("Aria") ? [aria] : [] } }) });
    const { user, router } = renderInPortal(<SupportHome initialGame="demo-game" initialQuery="" />);
    await user.type(screen.getByTestId("player-search"), "Aria Stone");
    expect(await screen.findByRole("link", { name: "demo-player-1" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Open player" }));
    expect(router.push).toHaveBeenCalledWith("/offers/demo-game/demo-player-1");
  });

  it("says what the proxy answered when the games cannot be listed", async () => {
    fakeApi({ "GET /api/offers/games": { status: 502, body: { message: "offers-admin-token-rejected", detail: "the offers service refused the portal's admin token (check OFFERS_ADMIN_TOKEN)" } } });
    renderInPortal(<SupportHome initialGame="" initialQuery="" />);
    expect((await screen.findByRole("alert")).textContent).toBe("the offers service refused the portal's admin token (check OFFERS_ADMIN_TOKEN)");
  });

  it("in the test environment, asks about test players and keeps env=test in its address and its links", async () => {
    window.history.replaceState(null, "", "/offers?env=test");
    const api = fakeApi({
      "GET /api/offers/games": games, "GET /api/offers/games/demo-game/support-grants": { body: { grants: [], pending: 0 } },
      "GET /api/offers/games/demo-game/players": (call) => ({ body: { players: call.url.includes("environment=test") ? [cleo] : [] } }),
    });
    const { user, router } = renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <SupportHome initialGame="" initialQuery="" />
      </OffersEnvironmentProvider>,
      { url: "/offers?env=test" },
    );
    expect(screen.getByTestId("environment-label").textContent).toBe("Test environment");
    await user.type(screen.getByTestId("player-search"), "cleo");
    expect((await screen.findByRole("link", { name: "demo-player-3" })).getAttribute("href")).toBe("/offers/demo-game/demo-player-3?env=test");
    // The search is kept in the address, in test.
    expect(`${window.location.pathname}${window.location.search}`).toBe("/offers?game=demo-game&q=cleo&env=test");
    expect(api.calls.every((call) => call.url.includes("environment=test"))).toBe(true);
    await user.click(screen.getByRole("button", { name: "Open player" }));
    expect(router.push).toHaveBeenCalledWith("/offers/demo-game/demo-player-3?env=test");
  });
});
