// @vitest-environment jsdom
// What the definition page says while it does not know yet: the player preview drops the verdict of the
// player picked before once another search is typed, and says when no player matches; the Activate
// dialog says it is counting until the count arrives, never a number it does not have.
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import type { OfferDefinition } from "@/lib/offers-client/schemas";
import { LifecycleActions } from "./lifecycle-actions";
import { PlayerPreview } from "./player-preview";

const definition: OfferDefinition = {
  gameId: "demo-game",
  offerId: "streak-bonus",
  name: "Streak bonus",
  description: "",
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }],
  realTime: true,
  durationSeconds: 3600,
  priority: 0,
  status: "draft",
  version: 2,
  etag: '"k9"',
  audience: { field: "loginStreak", op: "gte", value: 3 },
  schedule: { startsAt: null, endsAt: null },
  limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0, maxClaimsTotal: null },
  rollout: 100,
  variants: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
};

describe("the player preview", () => {
  it("clears the previous player's verdict when another search is typed, and says when no player matches", async () => {
    fakeApi({
      "GET /api/offers/games/demo-game/players": (call) => {
        const q = new URL(call.url, "http://x").searchParams.get("q");
        return { body: { players: q === "cleo" ? [{ playerId: "demo-player-3", username: "Cleo", updatedAt: "2026-11-20T10:00:00.000Z" }] : [] } };
      },
      "POST /api/offers/games/demo-game/definitions/streak-bonus/preview": {
        body: { gameId: "demo-game", offerId: "streak-bonus", playerId: "demo-player-3", definitionVersion: 2, wouldSurface: true, as: "surfaced", failed: null, checks: [], variantId: null },
      },
    });
    const { user } = renderInPortal(<PlayerPreview gameId="demo-game" offerId="streak-bonus" version={2} />);
    const search = screen.getByRole("searchbox", { name: /Player/ });
    await user.type(search, "cleo");
    await user.click(await screen.findByRole("button", { name: "Preview as Cleo (demo-player-3)" }));
    expect((await screen.findByTestId("preview-result")).textContent).toContain("Would surface for Cleo now");

    await user.clear(search);
    await user.type(search, "nobody-here");
    expect(screen.queryByTestId("preview-result")).toBeNull();
    await waitFor(() => expect(screen.getByTestId("no-such-player").textContent).toBe("No such player: no id or username of this game matches “nobody-here”."));
    expect(screen.queryByTestId("preview-result")).toBeNull();
  });
});

describe("the Activate dialog", () => {
  it("says it is counting until the count arrives, then the number", async () => {
    const count = heldAnswer({ body: { matching: 2, players: 3 } });
    fakeApi({ "POST /api/offers/games/demo-game/audience/count": count.handler });
    const { user } = renderInPortal(<LifecycleActions gameId="demo-game" definition={definition} onChanged={() => {}} />);
    await user.click(screen.getByRole("button", { name: "Activate" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByTestId("action-consequence").textContent).toBe("This will surface for the players who match now (counting…), and for every player who matches later.");
    count.release();
    await waitFor(() => expect(within(dialog).getByTestId("action-consequence").textContent).toBe("This will surface for 2 players now, and for every player who matches later."));
  });
});
