// @vitest-environment jsdom
// The live/test switch of the offers pages: it moves the page's URL to the other environment, the page
// says test in words and colour, and every call and query key of the page is about that environment.
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal, type FakeCall } from "@/test-support/components/render";
import { DefinitionList } from "@/components/live-ops/definition-list";
import { LiveOpsHome } from "@/components/live-ops/live-ops-home";
import { liveOpsKeys } from "@/components/live-ops/api";
import { OffersEnvironmentProvider } from "./offers-environment";

const environmentOf = (call: FakeCall) => new URL(call.url, "http://portal.test").searchParams.get("environment");
const games = { body: { games: [{ gameId: "demo-game", name: "Demo game", players: 3, maxOfferSlots: 3, currencies: [] }] } };

function summary(offerId: string, name: string) {
  return {
    gameId: "demo-game",
    offerId,
    name,
    description: "",
    rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5 }],
    realTime: false,
    durationSeconds: 3600,
    priority: 0,
    status: "draft",
    version: 1,
    audience: null,
    schedule: { startsAt: null, endsAt: null },
    limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0, maxClaimsTotal: null },
    rollout: 100,
    variants: null,
    audienceSummary: "assigned explicitly",
    funnel: { assigned: 0, surfaced: 0, viewed: 0, claimable: 0, claimed: 0, expired: 0, conversion: null },
    claimsPerDay: [0, 0],
  };
}

/** The game's definitions as each environment holds them. */
function liveOpsApi() {
  return fakeApi({
    "GET /api/offers/games": games,
    "GET /api/offers/games/demo-game/definitions": (call) => ({
      body: { definitions: [environmentOf(call) === "test" ? summary("test-offer", "Test offer") : summary("live-offer", "Live offer")], since: "2026-11-24", days: 2 },
    }),
  });
}

describe("the offers environment switch", () => {
  it("starts in live: the bar says so, the calls name live, the links carry no env", async () => {
    const api = liveOpsApi();
    renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <DefinitionList gameId="demo-game" />
      </OffersEnvironmentProvider>,
      { url: "/live-ops/demo-game" },
    );
    const bar = screen.getByTestId("environment-bar");
    expect(bar.dataset.environment).toBe("live");
    expect(within(bar).getByTestId("environment-label").textContent).toBe("Live environment");
    expect((within(bar).getByRole("radio", { name: "Live" }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByTestId("test-frame")).toBeNull();
    expect((await screen.findByRole("link", { name: "Live offer" })).getAttribute("href")).toBe("/live-ops/demo-game/offers/live-offer");
    expect(api.calls.length).toBeGreaterThan(0);
    expect(api.calls.map(environmentOf)).toEqual(api.calls.map(() => "live"));
  });

  it("switching to test moves the URL, marks the page as test, and lists and links the test environment's offers", async () => {
    const api = liveOpsApi();
    const { user, router, location, client } = renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <DefinitionList gameId="demo-game" />
      </OffersEnvironmentProvider>,
      { url: "/live-ops/demo-game" },
    );
    await screen.findByRole("link", { name: "Live offer" });
    const before = api.calls.length;

    await user.click(screen.getByRole("radio", { name: "Test" }));
    expect(router.push).toHaveBeenCalledWith("/live-ops/demo-game?env=test");
    expect(location()).toBe("/live-ops/demo-game?env=test");

    const bar = screen.getByTestId("environment-bar");
    await waitFor(() => expect(bar.dataset.environment).toBe("test"));
    expect(within(bar).getByTestId("environment-label").textContent).toBe("Test environment");
    expect(bar.textContent).toContain("Nothing here reaches live players.");
    expect(screen.getByTestId("test-frame")).toBeTruthy();
    expect((within(bar).getByRole("radio", { name: "Test" }) as HTMLInputElement).checked).toBe(true);

    expect((await screen.findByRole("link", { name: "Test offer" })).getAttribute("href")).toBe("/live-ops/demo-game/offers/test-offer?env=test");
    expect(screen.queryByRole("link", { name: "Live offer" })).toBeNull();
    expect(screen.getByTestId("new-offer").getAttribute("href")).toBe("/live-ops/demo-game/new?env=test");
    expect(screen.getByRole("navigation", { name: "Game sections" }).querySelector('a[href="/live-ops/demo-game/webhooks?env=test"]')).toBeTruthy();
    expect(screen.getByRole("link", { name: "Live ops" }).getAttribute("href")).toBe("/live-ops?env=test");

    const after = api.calls.slice(before);
    expect(after.length).toBeGreaterThan(0);
    expect(after.map(environmentOf)).toEqual(after.map(() => "test"));
    // Each environment's answer sits under its own key: the caches never mix.
    expect(client.getQueryData<{ definitions: Array<{ offerId: string }> }>(liveOpsKeys("live").definitions("demo-game"))?.definitions[0]?.offerId).toBe("live-offer");
    expect(client.getQueryData<{ definitions: Array<{ offerId: string }> }>(liveOpsKeys("test").definitions("demo-game"))?.definitions[0]?.offerId).toBe("test-offer");
  });

  it("is a radio group the keyboard moves: back to live drops env and keeps the rest of the address", async () => {
    const api = fakeApi({ "GET /api/offers/games": games });
    const { user, router, location } = renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <LiveOpsHome />
      </OffersEnvironmentProvider>,
      { url: "/live-ops?env=test&from=mail" },
    );
    const group = screen.getByRole("radiogroup", { name: "Environment" });
    expect(screen.getByTestId("environment-bar").dataset.environment).toBe("test");
    expect((await screen.findByRole("link", { name: "Demo game" })).getAttribute("href")).toBe("/live-ops/demo-game?env=test");
    expect(environmentOf(api.calls[0]!)).toBe("test");

    await user.tab();
    expect(document.activeElement).toBe(within(group).getByRole("radio", { name: "Test" }));
    await user.keyboard("{ArrowLeft}");
    expect(router.push).toHaveBeenCalledWith("/live-ops?from=mail");
    expect(location()).toBe("/live-ops?from=mail");
    await waitFor(() => expect(screen.getByTestId("environment-bar").dataset.environment).toBe("live"));
    expect(screen.queryByTestId("test-frame")).toBeNull();
    // Focus stays on the switch (only the page below it mounts anew).
    expect(document.activeElement).toBe(within(group).getByRole("radio", { name: "Live" }));
    expect((await screen.findByRole("link", { name: "Demo game" })).getAttribute("href")).toBe("/live-ops/demo-game");
    expect(environmentOf(api.calls.at(-1)!)).toBe("live");
  });

  it("is not shown without withSwitch, and the page keeps its environment", async () => {
    const api = fakeApi({ "GET /api/offers/games": games });
    renderInPortal(
      <OffersEnvironmentProvider>
        <LiveOpsHome />
      </OffersEnvironmentProvider>,
      { url: "/live-ops?env=test" },
    );
    await screen.findByRole("link", { name: "Demo game" });
    expect(screen.queryByTestId("environment-bar")).toBeNull();
    expect(environmentOf(api.calls[0]!)).toBe("test");
  });
});
