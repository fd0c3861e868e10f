// @vitest-environment jsdom
// The audience builder as a person uses it: rows and nested groups build the rule JSON the count is
// asked about; a value that does not fit is said at its control (and the count waits for it); a fault
// the service finds is placed at its control too.
import { describe, expect, it } from "vitest";
import { useState } from "react";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal, type FakeCall } from "@/test-support/components/render";
import { AudienceSection } from "./audience-section";
import { newGroup, type GroupDraft } from "./audience-model";

const currencies = [
  { id: "gold", name: "Gold" },
  { id: "gems", name: "Gems" },
];
const COUNT = "POST /api/offers/games/demo-game/audience/count";

function Harness({ initial = newGroup(), rollout }: { initial?: GroupDraft; rollout?: { percent: number; offerId: string } }) {
  const [value, setValue] = useState(initial);
  return <AudienceSection gameId="demo-game" currencies={currencies} value={value} onChange={setValue} rollout={rollout} />;
}

const lastAsked = (calls: FakeCall[]) => calls.at(-1)?.json;
const countSays = (text: string) => waitFor(() => expect(screen.getByTestId("audience-count").textContent).toBe(text));

describe("the audience builder", () => {
  it("builds the rule from rows and a negated nested group, and counts the players it matches", async () => {
    const api = fakeApi({ [COUNT]: { body: { matching: 2, players: 5 } } });
    const { user } = renderInPortal(<Harness />);
    await countSays("Matches 2 of 5 players now.");
    expect(lastAsked(api.callsTo("POST", "/api/offers/games/demo-game/audience/count"))).toEqual({ audience: { all: [] } });

    await user.click(screen.getByRole("button", { name: "Add condition" }));
    await user.type(screen.getByRole("textbox", { name: "Condition 1 value" }), "3");

    await user.click(screen.getByRole("button", { name: "Add group" }));
    const group = screen.getByRole("group", { name: "Group 2" });
    await user.selectOptions(within(group).getByRole("combobox", { name: "Condition 2.1 field" }), "currencies.gold.out");
    await user.selectOptions(within(group).getByRole("combobox", { name: "Condition 2.1 operator" }), "between");
    await user.type(within(group).getByRole("textbox", { name: "Condition 2.1 low" }), "10");
    await user.type(within(group).getByRole("textbox", { name: "Condition 2.1 high" }), "500");
    await user.click(within(group).getByRole("button", { name: "Add condition to group 2" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Condition 2.2 field" }), "username");
    await user.selectOptions(screen.getByRole("combobox", { name: "Condition 2.2 operator" }), "in");
    await user.type(screen.getByRole("textbox", { name: "Condition 2.2 values" }), "Aria, Bram");
    await user.click(screen.getByRole("checkbox", { name: "Not: Group 2 (those who do not match)" }));

    const expected = {
      audience: {
        all: [
          { field: "loginStreak", op: "gte", value: 3 },
          { not: { any: [{ field: "currencies.gold.out", op: "between", value: [10, 500] }, { field: "username", op: "in", value: ["Aria", "Bram"] }] } },
        ],
      },
    };
    await waitFor(() => expect(lastAsked(api.callsTo("POST", "/api/offers/games/demo-game/audience/count"))).toEqual(expected));
    await countSays("Matches 2 of 5 players now.");
  });

  it("says a value that does not fit at its control, and counts once it fits", async () => {
    const api = fakeApi({ [COUNT]: { body: { matching: 1, players: 3 } } });
    const { user } = renderInPortal(<Harness />);
    await countSays("Matches 1 of 3 players now.");
    await user.click(screen.getByRole("button", { name: "Add condition" }));
    const value = screen.getByRole("textbox", { name: "Condition 1 value" });
    await user.type(value, "three");
    expect(value.getAttribute("aria-invalid")).toBe("true");
    const row = screen.getByRole("group", { name: "Condition 1" });
    expect(within(row).getByRole("alert").textContent).toBe("Value: This is not a number: enter one, such as 10.");
    expect(screen.getByTestId("audience-count").textContent).toBe("Fix the problem above to see how many players match.");
    const asked = api.callsTo("POST", "/api/offers/games/demo-game/audience/count").length;

    await user.clear(value);
    await user.type(value, "3");
    expect(value.getAttribute("aria-invalid")).toBeNull();
    expect(within(row).queryByRole("alert")).toBeNull();
    await waitFor(() => expect(api.callsTo("POST", "/api/offers/games/demo-game/audience/count").length).toBe(asked + 1));
    expect(lastAsked(api.calls)).toEqual({ audience: { all: [{ field: "loginStreak", op: "gte", value: 3 }] } });

    // A level is named; a between whose high is below its low is refused at high.
    await user.selectOptions(screen.getByRole("combobox", { name: "Condition 1 field" }), "levels.*.level");
    expect(within(row).getByRole("alert").textContent).toBe("Level name: Enter the name of the level.");
    await user.type(screen.getByRole("textbox", { name: "Condition 1 level name" }), "main");
    await user.selectOptions(screen.getByRole("combobox", { name: "Condition 1 operator" }), "between");
    await user.type(screen.getByRole("textbox", { name: "Condition 1 low" }), "9");
    await user.type(screen.getByRole("textbox", { name: "Condition 1 high" }), "2");
    expect(screen.getByRole("textbox", { name: "Condition 1 high" }).getAttribute("aria-invalid")).toBe("true");
    expect(within(row).getByRole("alert").textContent).toBe("High: Enter a number no smaller than Low.");
  });

  it("offers the ops of the field's type: username compares as text", async () => {
    fakeApi({ [COUNT]: { body: { matching: 0, players: 3 } } });
    const { user } = renderInPortal(<Harness />);
    await user.click(screen.getByRole("button", { name: "Add condition" }));
    await user.selectOptions(screen.getByRole("combobox", { name: "Condition 1 field" }), "username");
    const ops = within(screen.getByRole("combobox", { name: "Condition 1 operator" }))
      .getAllByRole("option")
      .map((o) => o.textContent);
    expect(ops).toEqual(["=", "≠", "is one of", "exists"]);
    await user.selectOptions(screen.getByRole("combobox", { name: "Condition 1 operator" }), "exists");
    expect(screen.getByRole("combobox", { name: "Condition 1 value" })).toBeTruthy();
  });

  it("places a fault the service finds at the control it names", async () => {
    fakeApi({
      [COUNT]: { status: 400, body: { message: "invalid-request", detail: "the body is not valid", issues: [{ path: ["audience", "all", "0", "value"], message: "at most 100 values" }] } },
    });
    const { user } = renderInPortal(<Harness />);
    await user.click(screen.getByRole("button", { name: "Add condition" }));
    await user.type(screen.getByRole("textbox", { name: "Condition 1 value" }), "4");
    const row = screen.getByRole("group", { name: "Condition 1" });
    expect((await within(row).findByRole("alert")).textContent).toBe("Value: at most 100 values");
    expect(screen.getByRole("textbox", { name: "Condition 1 value" }).getAttribute("aria-invalid")).toBe("true");
  });
});
