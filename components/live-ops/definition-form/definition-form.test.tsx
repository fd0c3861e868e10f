// @vitest-environment jsdom
// The definition form as live ops uses it: checked as you type (messages at the field, by its label in
// the summary), a new offer saved as a draft with the JSON the contract takes, and an edit of an active
// offer that shows what changes before saving over the definition as loaded (its ETag as If-Match) — and
// says so when someone else saved first, keeping what was typed.
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import type { OfferDefinition } from "@/lib/offers-client/schemas";
import { DefinitionForm } from "./definition-form";
import { draftOf, newDraft } from "./form-model";

const currencies = [{ id: "gold", name: "Gold" }];
const COUNT = "POST /api/offers/games/demo-game/audience/count";
const stored: OfferDefinition = {
  gameId: "demo-game",
  offerId: "streak-bonus",
  name: "Streak bonus",
  description: "For loyal players",
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }],
  realTime: true,
  durationSeconds: 86_400,
  priority: 0,
  status: "active",
  version: 3,
  etag: '"a1b2c3"',
  audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }] },
  schedule: { startsAt: null, endsAt: null },
  limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0, maxClaimsTotal: null },
  rollout: 100,
  variants: null,
  createdAt: "2026-11-20T10:00:00.000Z",
  updatedAt: "2026-11-20T10:00:00.000Z",
};
const change = (definition: OfferDefinition) => ({ body: { definition, before: stored, changed: true, job: null } });

describe("the definition form", () => {
  it("checks as you type and saves a new offer as a draft with the contract's JSON", async () => {
    const api = fakeApi({ [COUNT]: { body: { matching: 1, players: 3 } }, "POST /api/offers/games/demo-game/definitions": { status: 201, ...change({ ...stored, status: "draft", version: 1, etag: '"d0"' }) } });
    const onSaved = vi.fn();
    const { user } = renderInPortal(<DefinitionForm gameId="demo-game" currencies={currencies} initial={newDraft()} onSaved={onSaved} />);

    const offerId = screen.getByRole("textbox", { name: "Offer id" });
    await user.type(offerId, "streak bonus");
    expect(offerId.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("form-problems").textContent).toContain("Offer id: Use 1 to 200 characters: letters A to Z in either case, digits, and _ . @ + = | ~ -");
    await user.clear(offerId);
    await user.type(offerId, "streak-bonus");
    expect(offerId.getAttribute("aria-invalid")).toBeNull();
    // Fields not yet edited say nothing until a save is tried.
    expect(screen.queryByTestId("form-problems")).toBeNull();

    await user.type(screen.getByRole("textbox", { name: "Name" }), "Streak bonus");
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Id" }), "gold");
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Name" }), "Gold");
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Amount" }), "lots");
    // A reward's problem reads as a sentence, at the field and in the summary.
    const amountProblem = "Enter the amount as a number of 0 or more, such as 100.";
    expect(screen.getByTestId("form-problems").textContent).toContain(`Reward 1 Amount: ${amountProblem}`);
    expect(screen.getByText(amountProblem, { selector: ".ui-field__error" })).toBeTruthy();
    await user.clear(screen.getByRole("textbox", { name: "Reward 1 Id" }));
    expect(screen.getByText("Enter the reward's id, as the game knows it (such as gold).", { selector: ".ui-field__error" })).toBeTruthy();
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Id" }), "gold");
    await user.clear(screen.getByRole("textbox", { name: "Reward 1 Amount" }));
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Amount" }), "50");

    await user.click(screen.getByRole("button", { name: "Add condition" }));
    await user.type(screen.getByRole("textbox", { name: "Condition 1 value" }), "3");
    await waitFor(() => expect(screen.getByTestId("audience-count").textContent).toBe("Matches 1 of 3 players now."));
    await user.clear(screen.getByRole("textbox", { name: "Rollout (%)" }));
    await user.type(screen.getByRole("textbox", { name: "Rollout (%)" }), "150");
    const problems = screen.getByTestId("form-problems");
    expect(problems.querySelector("p")?.textContent).toBe("1 problem to fix before saving:");
    expect([...problems.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["Rollout: Enter a number from 0 to 100; 150 is not."]);
    await user.clear(screen.getByRole("textbox", { name: "Rollout (%)" }));
    await user.type(screen.getByRole("textbox", { name: "Rollout (%)" }), "50");
    expect(screen.queryByTestId("form-problems")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Create draft" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(api.callsTo("POST", "/api/offers/games/demo-game/definitions")[0]!.json).toEqual({
      offerId: "streak-bonus",
      name: "Streak bonus",
      description: "",
      rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }],
      completionConditions: [],
      realTime: true,
      durationSeconds: 86_400,
      priority: 0,
      audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }] },
      schedule: { startsAt: null, endsAt: null },
      limits: { maxActivationsPerPlayer: 1, cooldownSeconds: 0, maxClaimsTotal: null },
      rollout: 50,
      variants: null,
    });
  });

  it("with variants on, leaves the offer's own reward out when it is left blank (the contract then takes the first variant's)", async () => {
    const api = fakeApi({ [COUNT]: { body: { matching: 1, players: 3 } }, "POST /api/offers/games/demo-game/definitions": { status: 201, ...change({ ...stored, status: "draft", version: 1, etag: '"d0"' }) } });
    const onSaved = vi.fn();
    const { user } = renderInPortal(<DefinitionForm gameId="demo-game" currencies={currencies} initial={newDraft()} onSaved={onSaved} />);
    await user.type(screen.getByRole("textbox", { name: "Offer id" }), "split-bonus");
    await user.type(screen.getByRole("textbox", { name: "Name" }), "Split bonus");
    await user.click(screen.getByRole("button", { name: "Add condition" }));
    await user.type(screen.getByRole("textbox", { name: "Condition 1 value" }), "3");
    await user.click(screen.getByRole("checkbox", { name: /Split players between 2–4 reward variants/ }));
    expect(screen.getByTestId("own-rewards-hint").textContent).toContain("optional with variants");
    for (const [n, amount] of [[1, "50"], [2, "80"]] as const) {
      await user.type(screen.getByRole("textbox", { name: `Variant ${n} reward 1 Id` }), "gold");
      await user.type(screen.getByRole("textbox", { name: `Variant ${n} reward 1 Name` }), "Gold");
      await user.type(screen.getByRole("textbox", { name: `Variant ${n} reward 1 Amount` }), amount);
    }

    await user.click(screen.getByRole("button", { name: "Create draft" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(screen.queryByText(/Reward 1 Id: Enter the reward's id/)).toBeNull();
    const body = api.callsTo("POST", "/api/offers/games/demo-game/definitions")[0]!.json as Record<string, unknown>;
    expect(body).not.toHaveProperty("rewards");
    expect(body.variants).toEqual([
      { variantId: "a", weight: 1, rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 50 }] },
      { variantId: "b", weight: 1, rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 80 }] },
    ]);
  });

  it("shows what an edit of an active offer changes, field by field, and saves it over the ETag loaded", async () => {
    const saved = { ...stored, name: "Streak bonus+", version: 4, etag: '"e4"' };
    const api = fakeApi({ [COUNT]: { body: { matching: 1, players: 3 } }, "PUT /api/offers/games/demo-game/definitions/streak-bonus": change(saved) });
    const onSaved = vi.fn();
    const { user } = renderInPortal(<DefinitionForm gameId="demo-game" currencies={currencies} initial={draftOf(stored)} existing={stored} onSaved={onSaved} />);

    await user.type(screen.getByRole("textbox", { name: "Name" }), "+");
    await user.clear(screen.getByRole("textbox", { name: "Reward 1 Amount" }));
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Amount" }), "99");
    await user.clear(screen.getByRole("textbox", { name: "Condition 1 value" }));
    await user.type(screen.getByRole("textbox", { name: "Condition 1 value" }), "5");
    await user.clear(screen.getByRole("textbox", { name: "Duration" }));
    await user.type(screen.getByRole("textbox", { name: "Duration" }), "2");
    await user.click(screen.getByRole("button", { name: "Review changes" }));

    const review = await screen.findByTestId("change-review");
    expect(document.activeElement).toBe(within(review).getByRole("heading", { name: "Changes to a live offer" }));
    const rows = within(review)
      .getAllByRole("row")
      .slice(1)
      .map((row) => row.textContent);
    expect(rows).toEqual([
      "Namewas Streak bonusbecomes Streak bonus+",
      "Rewardswas 50 × Gold (Coins, gold)becomes 99 × Gold (Coins, gold)",
      "Durationwas 1 daybecomes 2 days",
      "Audiencewas loginStreak ≥ 3becomes loginStreak ≥ 5",
    ]);
    expect(api.callsTo("PUT", "/api/offers/games/demo-game/definitions/streak-bonus")).toHaveLength(0);

    await user.click(within(review).getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const [put] = api.callsTo("PUT", "/api/offers/games/demo-game/definitions/streak-bonus");
    expect(put!.headers["if-match"]).toBe('"a1b2c3"');
    expect(put!.json).toMatchObject({ name: "Streak bonus+", rewards: [{ amount: 99 }], durationSeconds: 172_800, audience: { all: [{ field: "loginStreak", op: "gte", value: 5 }] } });
  });

  it("says when someone else changed the offer first (412), offers a reload and keeps what was typed", async () => {
    const api = fakeApi({
      [COUNT]: { body: { matching: 1, players: 3 } },
      "PUT /api/offers/games/demo-game/definitions/streak-bonus": {
        status: 412,
        body: { message: "precondition-failed", detail: "someone else changed this since you loaded it; reload to see their change, then apply yours again", etag: '"theirs"' },
      },
    });
    const draft = { ...stored, status: "paused" as const };
    const { user } = renderInPortal(<DefinitionForm gameId="demo-game" currencies={currencies} initial={draftOf(draft)} existing={draft} />);
    await user.type(screen.getByRole("textbox", { name: "Name" }), "!");
    await user.clear(screen.getByRole("textbox", { name: "Reward 1 Amount" }));
    await user.type(screen.getByRole("textbox", { name: "Reward 1 Amount" }), "75");
    // Paused: saved without a review.
    await user.click(screen.getByRole("button", { name: "Save changes" }));
    const failure = await screen.findByTestId("save-failure");
    expect(failure.textContent).toContain("Someone changed this offer since you opened it; reload to see their change.");
    expect(within(failure).getByRole("button", { name: "Reload" })).toBeTruthy();
    expect(api.callsTo("PUT", "/api/offers/games/demo-game/definitions/streak-bonus")[0]!.headers["if-match"]).toBe('"a1b2c3"');
    // What the person typed is still in the form.
    expect(screen.getByRole("textbox", { name: "Name" })).toHaveProperty("value", "Streak bonus!");
    expect(screen.getByRole("textbox", { name: "Reward 1 Amount" })).toHaveProperty("value", "75");
  });
});
