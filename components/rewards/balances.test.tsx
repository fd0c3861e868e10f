// @vitest-environment jsdom
// The rewards page's balances say what they are: the game's last report, with what was claimed since
// beside each (from the ledger, so a reload shows the same), not a sum the game has not confirmed.
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import { Balances } from "./claims";

const gold = { id: "gold", name: "Gold", image: null, balance: 1_000 };
const gems = { id: "gems", name: "Gems", image: null, balance: 5 };

describe("the player's balances", () => {
  it("show the game's last reported balance and, beside it, what was claimed since", () => {
    const fiveMinutesAgo = new Date(Date.now() - 5 * 60_000 - 1_000).toISOString();
    renderInPortal(<Balances currencies={[gold, gems]} snapshotAt={fiveMinutesAgo} claimedSinceSnapshot={{ gold: 100 }} />);
    expect(screen.getByTestId("balance-gold").textContent).toBe("1,000 Gold (+100 claimed, on its way)");
    expect(screen.getByTestId("balance-gems").textContent).toBe("5 Gems");
    expect(screen.getByTestId("balances-as-of").textContent).toBe("As your game last reported them, 5m ago. Rewards claimed since show beside them until it reports again.");
  });
});
