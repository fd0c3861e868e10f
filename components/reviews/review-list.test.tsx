// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import type { Review } from "./api";
import { ReviewList } from "./review-list";

const review = (iid: number, over: Partial<Review> = {}): Review => ({
  iid,
  title: `Config of checkout-api: staging (${iid})`,
  description: "Proposed in the portal by dana.",
  author: "dana",
  sourceBranch: `portal/checkout-api/config-${iid}`,
  targetBranch: "main",
  state: "opened",
  createdAt: "2026-11-23T10:00:00.000Z",
  updatedAt: "2026-11-23T10:00:00.000Z",
  mergedAt: null,
  webUrl: null,
  scope: { kind: "component", component: "checkout-api" },
  approvals: [],
  mergedBy: null,
  closedBy: null,
  closeReason: null,
  hasConflicts: false,
  can: { approve: true, merge: true, close: true },
  ...over,
});

describe("the Reviews page's lists", () => {
  it("offers to merge only what the server would merge: a conflicting request says it conflicts instead", async () => {
    // As the list route answers an owner: the conflicting request waits for a decision, but can.merge is false.
    const clean = review(4);
    const conflicting = review(5, { hasConflicts: true, can: { approve: true, merge: false, close: true } });
    fakeApi({
      "GET /api/merge-requests": (call) => {
        const mergeRequests = call.url.includes("mine-to-review=true") ? [conflicting, clean] : [];
        return { body: { count: mergeRequests.length, mergeRequests } };
      },
    });
    renderInPortal(<ReviewList userId="alice.martin" />);
    const toDecide = await screen.findByTestId("reviews-to-decide");

    const cleanRow = within(toDecide).getByTestId("review-4");
    expect(within(cleanRow).getByText("ready to merge")).toBeTruthy();
    expect(within(cleanRow).queryByTestId("review-row-conflicts")).toBeNull();

    const conflictingRow = within(toDecide).getByTestId("review-5");
    expect(within(conflictingRow).getByTestId("review-row-conflicts").textContent).toBe("conflicts with main");
    expect(within(conflictingRow).queryByText(/merge/i)).toBeNull();
    expect(within(conflictingRow).queryByRole("button")).toBeNull();
  });

  it("says nothing of merging on a request that is decided", async () => {
    const merged = review(6, { state: "merged", mergedAt: "2026-11-24T10:00:00.000Z", mergedBy: "alice.martin", can: { approve: false, merge: false, close: false } });
    fakeApi({
      "GET /api/merge-requests": (call) => {
        const mergeRequests = call.url.includes("author=") ? [merged] : [];
        return { body: { count: mergeRequests.length, mergeRequests } };
      },
    });
    renderInPortal(<ReviewList userId="dana" />);
    const row = within(await screen.findByTestId("reviews-mine")).getByTestId("review-6");
    expect(within(row).getByText("merged")).toBeTruthy();
    expect(within(row).queryByText(/ready to merge|conflicts/)).toBeNull();
  });
});
