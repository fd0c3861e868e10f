// @vitest-environment jsdom
// An offer of a player's page says when it ends as its status has it: a claimable offer never expires
// (earned rewards stay claimable), so it shows no expiry date.
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { renderInPortal } from "@/test-support/components/render";
import type { AdminOffer } from "./api";
import { OfferCard } from "./offer-card";
import { OffersCard } from "./offers-card";

const offer = (status: AdminOffer["status"]): AdminOffer => ({
  offerId: "welcome",
  instanceId: `i-${status}`,
  playerId: "p1",
  gameId: "demo-game",
  name: "Welcome pack",
  description: "",
  status,
  realTime: true,
  rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 100 }],
  createdAt: "2026-11-28T10:00:00.000Z",
  expiresAt: "2026-11-29T10:00:00.000Z",
  events: [],
});

describe("an offer's end on a player's page", () => {
  it("shows no expiry date for a claimable offer", () => {
    renderInPortal(<OfferCard offer={offer("claimable")} />);
    const times = screen.getByTestId("offer").querySelector("dl")!.textContent!;
    expect(times).toContain("Expiresnever: earned rewards stay claimable");
    expect(times).not.toMatch(/Nov 29|Ready to claim/);
  });

  it("dates the end of an offer that can still expire, and of one that did", () => {
    const { unmount } = renderInPortal(<OfferCard offer={offer("surfaced")} />);
    expect(screen.getByTestId("offer").querySelector("dl")!.textContent).toMatch(/Expires.+\(Expired\)|Expires.+left\)/);
    unmount();
    renderInPortal(<OfferCard offer={offer("expired")} />);
    const times = screen.getByTestId("offer").querySelector("dl")!.textContent!;
    expect(times).toContain("Expired");
    expect(times).not.toContain("Expires");
  });
});

describe("a player's offers", () => {
  it("shows those in play first and folds the claimed and expired ones below", () => {
    const offers = [{ ...offer("claimed"), name: "Old pack" }, offer("claimable"), { ...offer("expired"), name: "Lapsed pack" }];
    renderInPortal(<OffersCard offers={offers} />);
    const past = screen.getByTestId("past-offers") as HTMLDetailsElement;
    expect(past.open).toBe(false);
    expect(past.querySelector("summary")!.textContent).toBe("2 past offers (claimed or expired)");
    const all = screen.getAllByTestId("offer");
    // In play first, outside the fold; the past ones inside it.
    expect(all[0]!.textContent).toContain("Welcome pack");
    expect(past.contains(all[0]!)).toBe(false);
    expect(all.slice(1).every((o) => past.contains(o))).toBe(true);
  });
});
