import { describe, expect, it } from "vitest";
import { conditionLabel, conditionProgress, formatDuration, statusLabel, statusTone, timeLeftLabel } from "./offer-math";

const spend = (id: string, amount: number) => ({ kind: "spendCurrency" as const, id, name: id === "gold" ? "Gold" : "Gems", amount });

describe("conditionProgress", () => {
  it("reads the tracker of the condition kind and caps it at the amount", () => {
    expect(conditionProgress({ status: "viewed", completionConditions: [spend("gold", 500)], completionTrackers: { spendCurrency: 200 } })).toEqual([
      { key: "spendCurrency", name: "Gold", kind: "spendCurrency", amount: 500, progress: 200, fraction: 0.4, done: false },
    ]);
    const [over] = conditionProgress({ status: "viewed", completionConditions: [spend("gold", 500)], completionTrackers: { spendCurrency: 900 } });
    expect(over).toMatchObject({ progress: 500, fraction: 1, done: true });
    const [negative] = conditionProgress({ status: "viewed", completionConditions: [spend("gold", 500)], completionTrackers: { spendCurrency: -3 } });
    expect(negative).toMatchObject({ progress: 0, fraction: 0 });
  });

  it("uses kind:id keys when two conditions share a kind", () => {
    const result = conditionProgress({
      status: "surfaced",
      completionConditions: [spend("gold", 100), spend("gems", 10)],
      completionTrackers: { "spendCurrency:gold": 50, "spendCurrency:gems": 10 },
    });
    expect(result.map((r) => [r.key, r.fraction, r.done])).toEqual([
      ["spendCurrency:gold", 0.5, false],
      ["spendCurrency:gems", 1, true],
    ]);
  });

  it("counts missing trackers as zero, and as met once the offer is claimable or claimed", () => {
    expect(conditionProgress({ status: "surfaced", completionConditions: [spend("gold", 100)] })[0]).toMatchObject({ progress: 0, fraction: 0 });
    expect(conditionProgress({ status: "claimable", completionConditions: [spend("gold", 100)] })[0]).toMatchObject({ progress: 100, done: true });
    expect(conditionProgress({ status: "claimed", completionConditions: [spend("gold", 100)], completionTrackers: {} })[0]).toMatchObject({ fraction: 1 });
  });

  it("answers nothing for an offer without conditions", () => {
    expect(conditionProgress({ status: "surfaced" })).toEqual([]);
    expect(conditionProgress({ status: "surfaced", completionConditions: [] })).toEqual([]);
  });

  it("labels conditions", () => {
    expect(conditionLabel({ kind: "spendCurrency", name: "Gold", amount: 1500 })).toBe("Spend 1,500 Gold");
  });
});

describe("time left", () => {
  const now = Date.parse("2026-05-01T12:00:00Z");
  it("formats durations", () => {
    expect(formatDuration(0)).toBeNull();
    expect(formatDuration(-5)).toBeNull();
    expect(formatDuration(30_000)).toBe("less than a minute");
    expect(formatDuration(12 * 60_000)).toBe("12m");
    expect(formatDuration(3 * 3600_000 + 12 * 60_000)).toBe("3h 12m");
    expect(formatDuration(2 * 86400_000 + 3 * 3600_000 + 59_000)).toBe("2d 3h");
    expect(formatDuration(86400_000)).toBe("1d");
  });

  it("depends on the status: claimable offers do not expire", () => {
    const expiresAt = "2026-05-01T13:30:00Z";
    expect(timeLeftLabel({ status: "viewed", expiresAt }, now)).toBe("1h 30m left");
    expect(timeLeftLabel({ status: "surfaced", expiresAt: "2026-05-01T11:00:00Z" }, now)).toBe("Expired");
    expect(timeLeftLabel({ status: "claimable", expiresAt: "2026-05-01T11:00:00Z" }, now)).toBe("Ready to claim — no time limit");
    expect(timeLeftLabel({ status: "claimed", expiresAt }, now)).toBe("Claimed");
    expect(timeLeftLabel({ status: "expired", expiresAt }, now)).toBe("Expired");
  });
});

describe("status", () => {
  it("has labels and tones", () => {
    expect(statusLabel("inQueue")).toBe("In queue");
    expect(statusLabel("queued")).toBe("queued");
    expect(statusTone("claimable")).toBe("success");
    expect(statusTone("expired")).toBe("danger");
    expect(statusTone("viewed")).toBe("neutral");
  });
});
