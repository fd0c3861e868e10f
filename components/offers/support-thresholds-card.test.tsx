// @vitest-environment jsdom
// The four-eyes thresholds on the approvals page: read in words by everyone there, changed by a lead with
// each row checked as typed, saved as one list, the save disabled while it is sent.
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { rowProblem, ruleInWords, SupportThresholdsCard } from "./support-thresholds-card";

const PATH = "/api/offers/games/demo-game/support-thresholds";

describe("the support approval thresholds", () => {
  it("says each rule in words", () => {
    expect(ruleInWords({ kind: "coins", approvalAbove: 1000 })).toBe("Coins above 1,000 wait for approval.");
    expect(ruleInWords({ kind: "loyalty_currency", rewardId: "gems", approvalAbove: "always" })).toBe("Every grant of loyalty currency (gems) waits for approval.");
  });

  it("refuses a row it cannot save, with the rule in words", () => {
    expect(rowProblem({ kind: "coins", rewardId: "", mode: "above", above: "1,000" })).toBe("Enter the amount as a whole number from 0 to 1,000,000.");
    expect(rowProblem({ kind: "coins", rewardId: "has space", mode: "always", above: "" })).toMatch(/^A reward id is 1 to 200 characters/);
    expect(rowProblem({ kind: "coins", rewardId: "gold", mode: "above", above: "500" })).toBeNull();
  });

  it("shows the thresholds to support without a way to change them", async () => {
    fakeApi({ [`GET ${PATH}`]: { body: { rules: [{ kind: "coins", approvalAbove: 1000 }] } } });
    renderInPortal(<SupportThresholdsCard gameId="demo-game" canEdit={false} />);
    expect((await screen.findByTestId("thresholds-list")).textContent).toBe("Coins above 1,000 wait for approval.");
    expect(screen.queryByTestId("thresholds-edit")).toBeNull();
    expect(screen.getByText("A lead sets these.")).toBeTruthy();
  });

  it("lets a lead add a rule and save the list once, disabled while it is sent", async () => {
    const held = heldAnswer({ body: { rules: [{ kind: "coins", approvalAbove: 1000 }, { kind: "loyalty_currency", approvalAbove: "always" }] } });
    const api = fakeApi({ [`GET ${PATH}`]: { body: { rules: [{ kind: "coins", approvalAbove: 1000 }] } }, [`PUT ${PATH}`]: held.handler });
    const { user } = renderInPortal(<SupportThresholdsCard gameId="demo-game" canEdit />);
    await user.click(await screen.findByTestId("thresholds-edit"));
    await user.click(screen.getByRole("button", { name: "Add threshold" }));
    const second = screen.getByRole("group", { name: "Threshold 2" });
    await user.selectOptions(within(second).getByLabelText("Reward kind"), "loyalty_currency");
    await user.clear(within(second).getByLabelText("Amount"));
    await user.type(within(second).getByLabelText("Amount"), "lots");
    expect(within(second).getByRole("alert").textContent).toBe("Enter the amount as a whole number from 0 to 1,000,000.");
    expect((screen.getByTestId("thresholds-save") as HTMLButtonElement).disabled).toBe(true);
    await user.selectOptions(within(second).getByLabelText("Needs approval"), "always");
    const save = screen.getByTestId("thresholds-save") as HTMLButtonElement;
    await user.click(save);
    await waitFor(() => expect(save.disabled).toBe(true));
    await user.click(save);
    held.release();
    expect((await screen.findByTestId("thresholds-list")).textContent).toBe("Coins above 1,000 wait for approval.Every grant of loyalty currency waits for approval.");
    expect(api.callsTo("PUT", PATH)).toHaveLength(1);
    expect(api.callsTo("PUT", PATH)[0]!.json).toEqual({ rules: [{ kind: "coins", approvalAbove: 1000 }, { kind: "loyalty_currency", approvalAbove: "always" }] });
  });

  it("refuses a reward id pasted far too long where it is typed, with the limit, and saves nothing", async () => {
    const api = fakeApi({ [`GET ${PATH}`]: { body: { rules: [{ kind: "coins", approvalAbove: 1000 }] } }, [`PUT ${PATH}`]: { body: { rules: [] } } });
    const { user } = renderInPortal(<SupportThresholdsCard gameId="demo-game" canEdit />);
    await user.click(await screen.findByTestId("thresholds-edit"));
    const first = screen.getByRole("group", { name: "Threshold 1" });
    const rewardId = within(first).getByLabelText("Reward id") as HTMLInputElement;
    await user.click(rewardId);
    await user.paste("g".repeat(10_000));
    expect(rewardId.value).toHaveLength(10_000);
    expect(within(first).getByRole("alert").textContent).toBe("A reward id can be at most 200 characters; this one has 10,000.");
    const save = screen.getByTestId("thresholds-save") as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    await user.click(save);
    expect(api.callsTo("PUT", PATH)).toHaveLength(0);
  });
});
