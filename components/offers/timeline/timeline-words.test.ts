import { describe, expect, it } from "vitest";
import type { TimelineEntry } from "@/lib/offers-client/schemas";
import { durationWords, entrySummary, moveWords, sizeWords } from "./timeline-words";

const offer = (cause: string): Extract<TimelineEntry, { kind: "offer" }> => ({
  kind: "offer", at: "2026-12-01T10:00:00.000Z", id: "1", instanceId: "i1", offerId: "armory", offerName: "Armory",
  type: "surfaced", from: null, to: "surfaced", cause, ruleVersion: null, actor: null, reason: null,
});

// Every cause the offers engine records (lib/offers/engine: assign, settle, claims, snapshots, campaigns, sweep, support).
const ENGINE_CAUSES = ["rule", "assign", "claim", "snapshot", "expiry", "expiry-sweep", "support", "fetch", "viewingCampaigns", "viewed-without-conditions", "slot-freed"];

describe("timeline words", () => {
  it("says every cause the engine records in words, never its code", () => {
    for (const cause of ENGINE_CAUSES) {
      const summary = entrySummary(offer(cause));
      expect(summary, cause).not.toMatch(/cause|-|[a-z][A-Z]/);
    }
  });

  it("says why an offer left the queue or became claimable without a condition", () => {
    expect(entrySummary({ ...offer("slot-freed"), type: "surfaced" })).toBe("Offer “Armory” surfaced when one of the player's offer slots became free.");
    expect(entrySummary({ ...offer("viewed-without-conditions"), type: "claimable", to: "claimable" })).toBe("Offer “Armory” became claimable once viewed, as it has no conditions to meet.");
  });

  it("names a cause it does not know rather than hiding it", () => {
    expect(entrySummary(offer("migration"))).toContain("“migration”");
  });
});

describe("an offer's move in the live view", () => {
  it("says the statuses and the cause in words", () => {
    expect(moveWords({ fromStatus: null, toStatus: "inQueue", type: "queued", cause: "assign" })).toBe("new → in queue, on the game server's assignment");
    expect(moveWords({ fromStatus: "surfaced", toStatus: "viewed", type: "viewed", cause: "viewingCampaigns" })).toBe("surfaced → viewed, when the player opened the offers");
    expect(moveWords({ fromStatus: "surfaced", toStatus: "expired", type: "expired", cause: "support", actor: "sam" })).toBe("surfaced → expired, by sam (support)");
  });
});

describe("sizes and durations of the player's activity", () => {
  it("reads as people say them", () => {
    expect([0, 1, 1023, 1434, 5 * 1024 * 1024].map(sizeWords)).toEqual(["0 bytes", "1 byte", "1023 bytes", "1.4 KB", "5.0 MB"]);
    expect([400, 12_000, 60_000, 252_000, 3_600_000, 7_500_000].map(durationWords)).toEqual(["0 s", "12 s", "1 min", "4 min 12 s", "1 h", "2 h 5 min"]);
  });
});
