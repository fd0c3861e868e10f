import { describe, expect, it } from "vitest";
import { historyEntries, mergeEntries, offerEventKey, type LiveEntry } from "./use-watch-stream";

const offer = {
  instanceId: "i-1",
  name: "Welcome pack",
  events: [
    { seq: 1, type: "surfaced", fromStatus: null, toStatus: "surfaced", cause: "assign", at: "2026-11-23T10:00:00.000Z" },
    { seq: 2, type: "viewed", fromStatus: "surfaced", toStatus: "viewed", cause: "viewingCampaigns", at: "2026-11-23T10:05:00.000Z" },
  ],
};
const other = { instanceId: "i-2", offerId: "daily", events: [{ seq: 1, type: "queued", fromStatus: null, toStatus: "inQueue", cause: "assign", at: "2026-11-23T10:02:00.000Z" }] };

describe("the live view's history", () => {
  it("lists the player's recorded events oldest first, in the live view's words", () => {
    const entries = historyEntries([offer, other]);
    expect(entries.map((e) => [e.type, e.title, e.detail])).toEqual([
      ["surfaced", "Welcome pack", "new → surfaced, on the game server's assignment"],
      ["queued", "daily", "new → in queue, on the game server's assignment"],
      ["viewed", "Welcome pack", "surfaced → viewed, when the player opened the offers"],
    ]);
  });

  it("shows an event once when it arrives live and is in the history too, in time order", () => {
    const history = historyEntries([offer]);
    const live: LiveEntry[] = [
      { key: offerEventKey("i-1", 2)!, type: "viewed", at: "2026-11-23T10:05:00.000Z", title: "Welcome pack", detail: "surfaced → viewed", instanceId: "i-1" },
      { key: "live-1", type: "connection", at: "2026-11-23T10:04:00.000Z", title: "Player connected to the event stream" },
      { key: offerEventKey("i-1", 3)!, type: "claimable", at: "2026-11-23T10:06:00.000Z", title: "Welcome pack", instanceId: "i-1" },
    ];
    expect(mergeEntries(history, live).map((e) => e.type)).toEqual(["surfaced", "connection", "viewed", "claimable"]);
  });
});
