import { describe, expect, it } from "vitest";
import type { OfferStatus, SupportOfferAction } from "../contract";
import { supportStep } from "./support-transitions";

const now = new Date("2026-12-07T10:00:00Z");
const expiresAt = new Date("2026-12-07T12:00:00Z");
const hours = (n: number) => new Date(now.getTime() + n * 3600_000);
const step = (action: SupportOfferAction, status: OfferStatus, requested?: Date) => supportStep(action, { status, expiresAt }, now, requested).kind;

describe("what a support action may do to an offer", () => {
  it.each<[SupportOfferAction, OfferStatus, string]>([
    ["expire", "inQueue", "move"],
    ["expire", "surfaced", "move"],
    ["expire", "viewed", "move"],
    ["expire", "claimable", "refuse"],
    ["expire", "claimed", "refuse"],
    ["expire", "expired", "already"],
    ["revoke", "inQueue", "move"],
    ["revoke", "claimable", "move"],
    ["revoke", "claimed", "refuse"],
    ["revoke", "expired", "already"],
    ["make-claimable", "surfaced", "move"],
    ["make-claimable", "viewed", "move"],
    ["make-claimable", "inQueue", "refuse"],
    ["make-claimable", "claimable", "already"],
    ["make-claimable", "claimed", "refuse"],
    ["make-claimable", "expired", "refuse"],
  ])("%s of a %s offer: %s", (action, status, kind) => {
    expect(step(action, status)).toBe(kind);
  });

  it("revoke records `revoked`, expire `expired`", () => {
    expect(supportStep("revoke", { status: "viewed", expiresAt }, now)).toEqual({ kind: "move", to: "expired", type: "revoked" });
    expect(supportStep("expire", { status: "viewed", expiresAt }, now)).toEqual({ kind: "move", to: "expired", type: "expired" });
  });

  it("extends an open, unclaimable offer to a later expiry at most 30 days ahead; the same expiry is a repeat", () => {
    expect(supportStep("extend", { status: "surfaced", expiresAt }, now, hours(48))).toEqual({ kind: "extend", expiresAt: hours(48) });
    expect(step("extend", "inQueue", hours(30 * 24))).toBe("extend");
    expect(step("extend", "surfaced", expiresAt)).toBe("already");
    expect(supportStep("extend", { status: "surfaced", expiresAt }, now, hours(1))).toMatchObject({ kind: "refuse", code: "expiry-out-of-range" });
    expect(supportStep("extend", { status: "surfaced", expiresAt }, now, hours(30 * 24 + 1))).toMatchObject({ kind: "refuse", code: "expiry-out-of-range" });
    expect(supportStep("extend", { status: "surfaced", expiresAt }, now)).toMatchObject({ kind: "refuse", code: "expiry-out-of-range" });
    for (const status of ["claimable", "claimed", "expired"] as const) {
      expect(supportStep("extend", { status, expiresAt }, now, hours(48))).toMatchObject({ kind: "refuse", code: "offer-transition-refused" });
    }
  });
});
