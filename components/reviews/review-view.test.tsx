// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import type { ReviewDetail } from "./api";
import { ReviewView } from "./review-view";

const review = (over: Partial<ReviewDetail> = {}): ReviewDetail => ({
  iid: 3,
  title: "Config of checkout-api: staging",
  description: "Proposed in the portal by dana.",
  author: "dana",
  sourceBranch: "portal/checkout-api/config-of-checkout-api-abc123",
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
  can: { approve: true, merge: true, close: true },
  files: [{ oldPath: "config/checkout-api/staging.yaml", newPath: "config/checkout-api/staging.yaml", newFile: false, deletedFile: false, diff: "@@ -1,2 +1,2 @@\n # Limits of the basket\n-MAX_BASKET_ITEMS: 50\n+MAX_BASKET_ITEMS: 80\n" }],
  hasConflicts: false,
  ...over,
});

describe("a merge request's page", () => {
  it("shows the diff with its comment and merges for an owner", async () => {
    const api = fakeApi({
      "GET /api/merge-requests/3": { body: review() },
      "POST /api/merge-requests/3/merge": { body: { ...review(), state: "merged", mergedBy: "alice.martin", can: { approve: false, merge: false, close: false } } },
    });
    const { user } = renderInPortal(<ReviewView initial={review()} />);
    const diff = screen.getByTestId("review-diff");
    expect(within(diff).getByText("# Limits of the basket")).toBeTruthy();
    expect(diff.querySelector('[data-kind="del"]')?.textContent).toContain("MAX_BASKET_ITEMS: 50");
    expect(diff.querySelector('[data-kind="add"]')?.textContent).toContain("MAX_BASKET_ITEMS: 80");
    // A long line scrolls sideways: the keyboard reaches the scrolling region, named by its file.
    expect(within(diff).getByRole("region", { name: "Changes of config/checkout-api/staging.yaml" }).tabIndex).toBe(0);
    expect(screen.getByTestId("review-status").textContent).toBe("open, merges cleanly");
    await user.click(screen.getByRole("button", { name: "Merge" }));
    expect((await screen.findByTestId("review-outcome")).textContent).toContain("Merged !3");
    expect(api.callsTo("POST", "/api/merge-requests/3/merge")).toHaveLength(1);
  });

  it("a conflicting request says so and cannot be merged", () => {
    // As the server answers it: a conflicting request cannot be merged (can.merge false).
    const conflicting = review({ hasConflicts: true, can: { approve: true, merge: false, close: true } });
    fakeApi({ "GET /api/merge-requests/3": { body: conflicting } });
    renderInPortal(<ReviewView initial={conflicting} />);
    expect(screen.getByTestId("review-conflicts").textContent).toContain("conflicts with main");
    expect((screen.getByRole("button", { name: "Merge" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("closing asks for a reason, and the closed request shows it", async () => {
    const closed = review({ state: "closed", closedBy: "alice.martin", closeReason: "80 breaks the payment provider's limit", can: { approve: false, merge: false, close: false } });
    const api = fakeApi({ "GET /api/merge-requests/3": { body: closed }, "POST /api/merge-requests/3/close": { body: closed } });
    const { user } = renderInPortal(<ReviewView initial={review()} />);
    await user.click(screen.getByRole("button", { name: "Close…" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Close the merge request" }));
    expect(await within(dialog).findByText(/say why the request is closed/)).toBeTruthy();
    expect(api.callsTo("POST", "/api/merge-requests/3/close")).toHaveLength(0);
    await user.type(within(dialog).getByLabelText("Reason"), "80 breaks the payment provider's limit");
    await user.click(within(dialog).getByRole("button", { name: "Close the merge request" }));
    expect((await screen.findByTestId("review-close-reason")).textContent).toBe("80 breaks the payment provider's limit");
    expect(api.callsTo("POST", "/api/merge-requests/3/close")[0].json).toEqual({ reason: "80 breaks the payment provider's limit" });
  });

  it("closed elsewhere while the page was open: a refused merge reloads the request, says so, and leaves no decision to take", async () => {
    const closed = review({ state: "closed", closedBy: "olga", closeReason: "superseded", can: { approve: false, merge: false, close: false } });
    fakeApi({
      "GET /api/merge-requests/3": { body: closed },
      "POST /api/merge-requests/3/merge": { status: 409, body: { message: "merge-request-decided", detail: "merge request !3 is already closed" } },
    });
    const { user } = renderInPortal(<ReviewView initial={review()} />);
    await user.click(screen.getByRole("button", { name: "Merge" }));
    expect((await screen.findByTestId("review-changed")).textContent).toContain("It changed since you opened this page: it now shows the request as it is.");
    expect((await screen.findByTestId("review-status")).textContent).toBe("closed");
    expect(screen.getByTestId("review-closed").textContent).toContain("Closed by olga");
    expect(screen.queryByTestId("review-actions")).toBeNull();
  });

  it("closed elsewhere: a refused close shuts the dialog and shows the request as it is", async () => {
    const closed = review({ state: "closed", closedBy: "olga", closeReason: "superseded", can: { approve: false, merge: false, close: false } });
    fakeApi({
      "GET /api/merge-requests/3": { body: closed },
      "POST /api/merge-requests/3/close": { status: 409, body: { message: "merge-request-decided", detail: "merge request !3 is already closed" } },
    });
    const { user } = renderInPortal(<ReviewView initial={review()} />);
    await user.click(screen.getByRole("button", { name: "Close…" }));
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText("Reason"), "not needed");
    await user.click(within(dialog).getByRole("button", { name: "Close the merge request" }));
    expect((await screen.findByTestId("review-changed")).textContent).toContain("merge request !3 is already closed");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect((await screen.findByTestId("review-status")).textContent).toBe("closed");
    expect(screen.queryByTestId("review-actions")).toBeNull();
  });

  it("shows no decision to someone who may not take one", () => {
    fakeApi({ "GET /api/merge-requests/3": { body: review({ can: { approve: false, merge: false, close: false } }) } });
    renderInPortal(<ReviewView initial={review({ can: { approve: false, merge: false, close: false } })} />);
    expect(screen.queryByTestId("review-actions")).toBeNull();
  });
});
