// @vitest-environment jsdom
// A player's timeline as support reads it: entries said in words, newest first, older pages on demand
// with the cursor the service gave, kinds filtered, in the environment the page names.
import { afterEach, describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { OffersEnvironmentProvider } from "@/components/offers-environment/offers-environment";
import type { TimelineEntry } from "@/lib/offers-client/schemas";
import { PlayerTimeline } from "./player-timeline";

class SilentEventSource {
  static readonly CLOSED = 2;
  readyState = 0;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {}
  addEventListener() {}
  close() {
    this.readyState = SilentEventSource.CLOSED;
  }
}
afterEach(() => vi.unstubAllGlobals());

const PATH = "/api/offers/games/demo-game/players/tess/timeline";
const claimed: TimelineEntry = { kind: "offer", at: "2026-12-01T10:00:02.000Z", id: "9", instanceId: "i1", offerId: "armory", offerName: "Armory", type: "claimed", from: "claimable", to: "claimed", cause: "claim", ruleVersion: null, actor: null, reason: null };
const reward: TimelineEntry = {
  kind: "reward",
  at: "2026-12-01T10:00:02.000Z",
  id: "4",
  eventId: "evt_1",
  sourceKind: "support",
  source: "support",
  offerId: null,
  variantId: null,
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 5000 }],
  actor: "sam@support",
  approvedBy: "lee@lead",
  reason: "Refund of a double purchase",
};
const delivery: TimelineEntry = {
  kind: "delivery",
  at: "2026-12-01T10:00:03.000Z",
  id: "7",
  deliveryId: 7,
  endpointId: "ep_1",
  messageId: "evt_1",
  status: "pending",
  attempts: [
    { at: "2026-12-01T10:00:03.100Z", statusCode: 500, error: null, latencyMs: 12 },
    { at: "2026-12-01T10:00:33.100Z", statusCode: null, error: "timeout", latencyMs: 5000 },
  ],
};
const surfaced: TimelineEntry = { ...claimed, id: "8", at: "2026-12-01T09:00:00.000Z", type: "surfaced", from: null, to: "surfaced", cause: "rule", ruleVersion: 3 };

describe("a player's timeline", () => {
  it("says each entry in words, newest first, and reads older pages with the cursor it was given", async () => {
    vi.stubGlobal("EventSource", SilentEventSource);
    const api = fakeApi({
      [`GET ${PATH}`]: (call) => (call.url.includes("before=c1") ? { body: { entries: [surfaced], next: null } } : { body: { entries: [delivery, reward, claimed], next: "c1" } }),
    });
    const { user } = renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <PlayerTimeline gameId="demo-game" playerId="tess" />
      </OffersEnvironmentProvider>,
      { url: "/offers/demo-game/tess/timeline?env=test" },
    );
    const list = await screen.findByRole("list", { name: "Timeline of tess, newest first" });
    const items = within(list).getAllByRole("listitem").filter((li) => li.parentElement === list);
    expect(items.map((li) => li.querySelector("p")!.textContent)).toEqual([
      "Webhook to endpoint ep_1 will be tried again (2 attempts so far); last answer no answer (timeout).",
      "5,000 Gold granted by sam@support, approved by lee@lead.",
      "Offer “Armory” was claimed.",
    ]);
    expect(within(items[1]!).getByText("Reason: Refund of a double purchase")).toBeTruthy();
    expect(api.callsTo("GET", PATH)[0]!.url).toContain("environment=test");

    await user.click(screen.getByRole("button", { name: "Show older entries" }));
    expect(await screen.findByText("Offer “Armory” surfaced by its audience rule (version 3).")).toBeTruthy();
    expect(api.callsTo("GET", PATH).some((c) => c.url.includes("before=c1"))).toBe(true);
    expect(screen.queryByRole("button", { name: "Show older entries" })).toBeNull();
    expect(screen.getByText("That is everything: 4 entries.")).toBeTruthy();
  });

  it("asks for the kinds kept, and for nothing when none is", async () => {
    vi.stubGlobal("EventSource", SilentEventSource);
    const api = fakeApi({ [`GET ${PATH}`]: { body: { entries: [], next: null } } });
    const { user } = renderInPortal(<PlayerTimeline gameId="demo-game" playerId="tess" />);
    expect(await screen.findByTestId("timeline-empty")).toBeTruthy();
    expect(decodeURIComponent(api.callsTo("GET", PATH)[0]!.url)).toContain("kinds=offer,reward,delivery,support,activity");
    await user.click(screen.getByRole("checkbox", { name: "Deliveries" }));
    await waitFor(() => expect(decodeURIComponent(api.callsTo("GET", PATH).at(-1)!.url)).toContain("kinds=offer,reward,support,activity&"));
    await user.click(screen.getByRole("checkbox", { name: "Activity" }));
    await waitFor(() => expect(decodeURIComponent(api.callsTo("GET", PATH).at(-1)!.url)).toContain("kinds=offer,reward,support&"));
    for (const name of ["Offers", "Rewards", "Support"]) await user.click(screen.getByRole("checkbox", { name }));
    expect(await screen.findByText("Choose at least one kind of entry to show.")).toBeTruthy();
    expect(api.callsTo("GET", PATH).every((c) => !decodeURIComponent(c.url).includes("kinds=&"))).toBe(true);
  });

  it("says the player's activity in words: snapshots pushed, streams opened and closed", async () => {
    vi.stubGlobal("EventSource", SilentEventSource);
    const activity = { kind: "activity", fields: null, bytes: null, instance: null, resumed: null, openMs: null, reason: null } as const;
    const entries: TimelineEntry[] = [
      { ...activity, at: "2026-12-01T10:04:12.000Z", id: "4", activity: "stream-closed", instance: "a1b2c3d4", openMs: 252_000, reason: "client closed" },
      { ...activity, at: "2026-12-01T10:00:00.500Z", id: "3", activity: "stream-opened", instance: "a1b2c3d4", resumed: true },
      { ...activity, at: "2026-12-01T10:00:00.000Z", id: "2", activity: "snapshot", fields: 12, bytes: 1434 },
      { ...activity, at: "2026-12-01T09:00:00.000Z", id: "1", activity: "snapshot", fields: 1, bytes: 40 },
    ];
    fakeApi({ [`GET ${PATH}`]: { body: { entries, next: null } } });
    renderInPortal(<PlayerTimeline gameId="demo-game" playerId="tess" />);
    const list = await screen.findByRole("list", { name: "Timeline of tess, newest first" });
    const items = within(list).getAllByRole("listitem").filter((li) => li.parentElement === list);
    expect(items.map((li) => li.querySelector("p")!.textContent)).toEqual([
      "Stream closed after 4 min 12 s on instance a1b2c3d4: the player's app closed it.",
      "Stream opened (resumed) on instance a1b2c3d4.",
      "Snapshot pushed: 12 fields, 1.4 KB.",
      "Snapshot pushed: 1 field, 40 bytes.",
    ]);
    expect(within(items[0]!).getByText("Activity")).toBeTruthy();
  });

  it("says when the player does not exist in this environment", async () => {
    vi.stubGlobal("EventSource", SilentEventSource);
    fakeApi({ [`GET ${PATH}`]: { status: 404, body: { message: "player-not-found", detail: "no such player in this game" } } });
    renderInPortal(<PlayerTimeline gameId="demo-game" playerId="tess" />);
    expect(await screen.findByRole("heading", { name: "No such player" })).toBeTruthy();
  });
});
