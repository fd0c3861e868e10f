// @vitest-environment jsdom
// The incident compensation page: the CSV field says its limit in words and refuses a larger file where it is
// picked; asking needs a preview first; a job waiting for approval offers no approval to its requester, and a
// second person rejects only with a reason.
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { BulkCompensationPage } from "./bulk-compensation-page";
import { BulkJobs } from "./bulk-jobs";

const games = { body: { games: [{ gameId: "demo-game", name: "Demo", players: 3, maxOfferSlots: 3, currencies: [] }] } };
const preview = { players: 2, totalAmount: 200, kind: "coins", rewardId: "gold", name: "Gold", amount: 100, invalid: 1, invalidSample: [{ line: 4, value: "a b" }], duplicates: 1, duplicateSample: [], unknown: 0, unknownSample: [] };
const job = {
  jobId: "bc_1",
  gameId: "demo-game",
  source: "list",
  reason: "Login outage",
  requestedBy: "sue",
  status: "pending",
  preview,
  progress: { granted: 0, remaining: 2, cancelled: 0, total: 2 },
  decidedBy: null,
  decisionReason: null,
  cancelledBy: null,
  requestedAt: "2026-12-07T10:00:00.000Z",
  decidedAt: null,
  expiresAt: "2026-12-10T10:00:00.000Z",
  finishedAt: null,
  resultDeletedAt: null,
};

describe("the incident compensation form", () => {
  it("says the list's limit in words, refuses a file over it where it is picked, and asks only after a preview", async () => {
    const api = fakeApi({
      "GET /api/offers/games": games,
      "GET /api/offers/games/demo-game/bulk-compensations": { body: { jobs: [], pending: 0 } },
      "POST /api/offers/games/demo-game/bulk-compensations/preview": { body: { preview } },
    });
    const { user } = renderInPortal(<BulkCompensationPage initialGame="demo-game" me="sue" canAsk />);
    expect(screen.getByText(/at most 1,000,000 player ids and 32 MB/)).toBeTruthy();
    await user.type(screen.getByTestId("bulk-reward-id"), "gold");
    await user.type(screen.getByTestId("bulk-amount"), "100");
    await user.type(screen.getByTestId("bulk-reason"), "Login outage");
    const big = new File(["x"], "big.csv", { type: "text/csv" });
    Object.defineProperty(big, "size", { value: 40 * 1024 * 1024 });
    await user.upload(screen.getByTestId("bulk-file"), big);
    expect(screen.getByText(/This file is larger than 32 MB/)).toBeTruthy();
    expect((screen.getByTestId("bulk-preview") as HTMLButtonElement).disabled).toBe(true);

    await user.upload(screen.getByTestId("bulk-file"), new File(["playerId\np1\np2\np1\na b\n"], "ok.csv", { type: "text/csv" }));
    expect((screen.getByTestId("bulk-ask") as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByTestId("bulk-preview"));
    expect((await screen.findByTestId("bulk-preview-players")).textContent).toBe("2");
    expect(screen.getByTestId("bulk-preview-rejected").textContent).toBe("1 repeated ids (counted once) · 0 unknown ids · 1 invalid ids (not granted)");
    expect((screen.getByTestId("bulk-ask") as HTMLButtonElement).disabled).toBe(false);
    expect(api.callsTo("POST", "/api/offers/games/demo-game/bulk-compensations")).toHaveLength(0);
  });
});

describe("a compensation waiting for approval", () => {
  it("offers its requester no approval, and lets a second person reject only with a reason", async () => {
    fakeApi({ "GET /api/offers/games/demo-game/bulk-compensations": { body: { jobs: [job], pending: 1 } } });
    const { unmount } = renderInPortal(<BulkJobs gameId="demo-game" me="SUE" status="pending" title="Waiting" />);
    const own = await screen.findByTestId("bulk-job-bc_1");
    expect(within(own).queryByTestId("bulk-job-approve")).toBeNull();
    expect(within(own).getByText("Someone else approves")).toBeTruthy();
    unmount();

    const { user } = renderInPortal(<BulkJobs gameId="demo-game" me="lee" status="pending" title="Waiting" />);
    const theirs = await screen.findByTestId("bulk-job-bc_1");
    expect(screen.getByTestId("pending-bulk-badge").textContent).toBe("1");
    const reject = within(theirs).getByTestId("bulk-job-reject") as HTMLButtonElement;
    expect(reject.disabled).toBe(true);
    expect((within(theirs).getByTestId("bulk-job-approve") as HTMLButtonElement).disabled).toBe(false);
    await user.type(within(theirs).getByTestId("bulk-job-reason"), "Not our outage");
    await waitFor(() => expect(reject.disabled).toBe(false));
  });
});

describe("a compensation that ended long ago", () => {
  it("keeps its counts and says its result was deleted instead of offering a download", async () => {
    const ended = {
      ...job,
      status: "done",
      progress: { granted: 2, remaining: 0, cancelled: 0, total: 2 },
      decidedBy: "lee",
      finishedAt: "2026-12-07T11:00:00.000Z",
      resultDeletedAt: "2027-01-06T11:00:00.000Z",
    };
    fakeApi({ "GET /api/offers/games/demo-game/bulk-compensations": { body: { jobs: [ended], pending: 0 } } });
    renderInPortal(<BulkJobs gameId="demo-game" me="lee" title="Compensations" />);
    const shown = await screen.findByTestId("bulk-job-bc_1");
    expect(within(shown).getByText(/2 of 2/)).toBeTruthy();
    expect(within(shown).getByTestId("bulk-job-result-deleted").textContent).toMatch(/^The per-player result was deleted on .+, after the retention period; the counts above remain\.$/);
    expect(within(shown).queryByTestId("bulk-job-result")).toBeNull();
  });
});
