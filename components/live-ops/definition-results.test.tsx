// @vitest-environment jsdom
// What the definition page says about results and actions: the funnel's figures and conversion, each
// variant's claim rate with its difference against the first and whether that is likely noise, and the
// confirmation of an activation that states how many players it will surface for now, and what it says when
// someone changed the offer first.
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import type { DefinitionFunnel, OfferDefinition } from "@/lib/offers-client/schemas";
import { FunnelSection } from "./funnel-section";
import { LifecycleActions } from "./lifecycle-actions";

const counts = (surfaced: number, claimed: number) => ({ assigned: surfaced + 1, surfaced, viewed: surfaced, claimable: claimed, claimed, expired: 0, conversion: surfaced ? claimed / surfaced : null });
const funnel: DefinitionFunnel = {
  days: 3,
  total: counts(400, 120),
  byDay: ["2026-11-23", "2026-11-24", "2026-11-25"].map((day) => ({ day, ...counts(100, 30) })),
  variants: [
    { variantId: "a", ...counts(200, 40) },
    { variantId: "b", ...counts(150, 60) },
    { variantId: "c", ...counts(50, 11) },
    { variantId: "d", ...counts(0, 0) },
  ],
  comparisons: [
    { variantId: "b", baselineId: "a", difference: 0.2, low: 0.107, high: 0.293, significant: true },
    { variantId: "c", baselineId: "a", difference: 0.02, low: -0.104, high: 0.144, significant: false },
    { variantId: "d", baselineId: "a", difference: null, low: null, high: null, significant: false },
  ],
};

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
  rollout: 50,
  variants: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
};

describe("the definition page's results", () => {
  it("shows the funnel's figures and each variant's claim rate, difference and whether it is likely noise", async () => {
    fakeApi({ "GET /api/offers/games/demo-game/definitions/streak-bonus/funnel": { body: funnel } });
    renderInPortal(<FunnelSection gameId="demo-game" offerId="streak-bonus" hasVariants />);
    expect((await screen.findByTestId("funnel-surfaced")).textContent).toBe("400");
    expect(screen.getByTestId("funnel-claimed").textContent).toBe("120");
    expect(screen.getByTestId("funnel-conversion").textContent).toBe("30.0%");
    // The charts repeat the figures: hidden from assistive technology, and inert so no part of them takes focus.
    for (const chart of [await screen.findByTestId("funnel-stages-chart"), await screen.findByTestId("funnel-days-chart")]) {
      expect([chart.getAttribute("aria-hidden"), chart.hasAttribute("inert")]).toEqual(["true", true]);
    }

    const results = screen.getAllByTestId("variant-result");
    expect(results.map((r) => within(r).getByRole("heading").textContent)).toEqual(["Variant a (baseline)", "Variant b", "Variant c", "Variant d"]);
    expect(within(results[0]!).getByText("20.0%")).toBeTruthy();
    expect(within(results[1]!).getByTestId("variant-verdict").textContent).toBe(
      "Claim rate against a: +20.0 points (95% interval +10.7 points to +29.3 points). Likely a real difference: b is claimed at a higher rate than a, and the 95% interval does not include zero.",
    );
    expect(within(results[2]!).getByTestId("variant-verdict").textContent).toBe(
      "Claim rate against a: +2.0 points (95% interval −10.4 points to +14.4 points). Likely noise: the 95% interval includes zero, so c and a cannot be told apart yet.",
    );
    // Only the variant that has not surfaced is named.
    expect(within(results[3]!).getByTestId("variant-verdict").textContent).toBe("Not enough data yet: d has not surfaced for anyone.");
    // Each variant has its chart too, repeating its figures: hidden from assistive technology and inert.
    await waitFor(() => expect(results.map((r) => within(r).queryByTestId("variant-chart") !== null)).toEqual([true, true, true, true]));
    for (const chart of screen.getAllByTestId("variant-chart")) expect([chart.getAttribute("aria-hidden"), chart.hasAttribute("inert")]).toEqual(["true", true]);
  });

  it("confirms an activation with how many players it will surface for now, within the rollout, on the definition shown (its ETag)", async () => {
    const api = fakeApi({
      "POST /api/offers/games/demo-game/audience/count": { body: { matching: 2, players: 3 } },
      "POST /api/offers/games/demo-game/definitions/streak-bonus/activate": { body: { definition: { ...definition, status: "active", version: 3, etag: '"k10"' }, before: definition, changed: true, job: null } },
    });
    let changed = 0;
    const { user } = renderInPortal(<LifecycleActions gameId="demo-game" definition={definition} onChanged={() => (changed += 1)} />);
    expect(screen.getAllByRole("button").map((b) => b.textContent)).toEqual(["Activate", "Archive"]);
    await user.click(screen.getByRole("button", { name: "Activate" }));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByRole("heading").textContent).toBe("Activate Streak bonus?");
    await waitFor(() => expect(within(dialog).getByTestId("action-consequence").textContent).toBe("This will surface for 2 players now, and for every player who matches later."));
    expect(within(dialog).getByText("Counted within its 50% rollout.")).toBeTruthy();
    expect(api.callsTo("POST", "/api/offers/games/demo-game/audience/count")[0]!.json).toEqual({ audience: definition.audience, rollout: 50, offerId: "streak-bonus" });

    await user.click(within(dialog).getByRole("button", { name: "Activate" }));
    await waitFor(() => expect(changed).toBe(1));
    expect(api.callsTo("POST", "/api/offers/games/demo-game/definitions/streak-bonus/activate")[0]!.headers["if-match"]).toBe('"k9"');
  });

  it("says when someone changed the offer since it was opened (412), with a reload, and changes nothing on screen", async () => {
    fakeApi({
      "POST /api/offers/games/demo-game/audience/count": { body: { matching: 2, players: 3 } },
      "POST /api/offers/games/demo-game/definitions/streak-bonus/archive": { status: 412, body: { message: "precondition-failed", detail: "someone else changed this since you loaded it", etag: '"k10"' } },
    });
    let changed = 0;
    const { user } = renderInPortal(<LifecycleActions gameId="demo-game" definition={definition} onChanged={() => (changed += 1)} />);
    await user.click(screen.getByRole("button", { name: "Archive" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Archive" }));
    const alert = await within(dialog).findByText(/Someone changed this offer since you opened it; reload to see their change\./);
    expect(within(alert).getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(changed).toBe(0);
  });
});
