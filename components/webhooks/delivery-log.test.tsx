// @vitest-environment jsdom
// The delivery log tells what happens now: a delivery being sent is followed each second until it settles
// (not left "not tried yet" after the receiver answered), a replayed one says its last answer is the earlier
// round's until the new attempt lands, and the attempts read newest first.
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import { DeliveryLog } from "./delivery-log";

const BASE = "/api/offers/games/demo-game/webhooks";
const base = {
  deliveryId: 7,
  endpointId: "ep_1",
  url: "https://game.example.com/hooks",
  messageId: "evt_abc",
  eventType: "reward.granted",
  playerId: "demo-player-2",
  rewards: [{ kind: "trust_points", rewardId: "tp", name: "Trust points", amount: 10 }],
  eventAt: "2026-11-25T10:00:00.000Z",
  failedAt: null,
};
const at = (ms: number) => new Date(Date.now() + ms).toISOString();
const attempt = (statusCode: number, latencyMs: number, ago: number) => ({ at: at(-ago), statusCode, error: null, latencyMs });
const pendingNew = () => ({ ...base, status: "pending", attempts: 0, nextAttemptAt: at(0), lastStatusCode: null, lastError: null, lastLatencyMs: null, deliveredAt: null, attemptLog: [] });
const delivered = (log: ReturnType<typeof attempt>[]) => ({ ...base, status: "delivered", attempts: log.length, nextAttemptAt: null, lastStatusCode: 200, lastError: null, lastLatencyMs: 12, deliveredAt: at(0), attemptLog: log });

/** Answers the log's pages in turn, the last one from then on. */
function pages(...answers: Array<() => unknown>) {
  let n = 0;
  return fakeApi({ [`GET ${BASE}/deliveries`]: () => ({ body: { deliveries: [answers[Math.min(n++, answers.length - 1)]!()], nextBefore: null } }) });
}

describe("the delivery log, while a delivery settles", () => {
  it("follows a delivery being sent until the receiver's answer shows, without waiting for the page's refresh", async () => {
    const api = pages(pendingNew, () => delivered([attempt(200, 12, 0)]));
    renderInPortal(<DeliveryLog gameId="demo-game" refreshMs={false} />);
    const row = await screen.findByTestId("delivery");
    expect(within(row).getByTestId("delivery-answer").textContent).toBe("sending…");
    await waitFor(() => expect(within(screen.getByTestId("delivery")).getByTestId("delivery-status").textContent).toBe("Delivered"), { timeout: 4_000 });
    expect(within(screen.getByTestId("delivery")).getByTestId("delivery-answer").textContent).toBe("HTTP 200 in 12 ms");
    const fetched = api.callsTo("GET", `${BASE}/deliveries`).length;
    // Settled: no more polling (the page's own refresh is off here).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(api.callsTo("GET", `${BASE}/deliveries`)).toHaveLength(fetched);
  });

  it("after a replay, says the last answer is the earlier round's until the new attempt lands, then shows it first", async () => {
    const failed = () => ({ ...base, status: "failed", attempts: 1, nextAttemptAt: null, lastStatusCode: 500, lastError: null, lastLatencyMs: 30, deliveredAt: null, failedAt: at(-60_000), attemptLog: [attempt(500, 30, 60_000)] });
    const replayed = () => ({ ...failed(), status: "pending", nextAttemptAt: at(0), failedAt: null });
    let replays = 0;
    let n = 0;
    const answers = [failed, replayed, () => delivered([attempt(200, 12, 0), attempt(500, 30, 60_000)])];
    fakeApi({
      [`GET ${BASE}/deliveries`]: () => ({ body: { deliveries: [answers[Math.min(replays === 0 ? 0 : ++n, answers.length - 1)]!()], nextBefore: null } }),
      [`POST ${BASE}/deliveries/7/replay`]: () => {
        replays += 1;
        return { status: 202, body: { replayed: 1 } };
      },
      [`GET ${BASE}`]: { body: { endpoints: [], stats: { lagSeconds: 0, oldestUndeliveredAt: null, pending: 0, failed: 0 } } },
    });
    const { user } = renderInPortal(<DeliveryLog gameId="demo-game" refreshMs={false} />);
    await user.click(within(await screen.findByTestId("delivery")).getByRole("button", { name: "Replay" }));
    await waitFor(() => expect(within(screen.getByTestId("delivery")).getByTestId("delivery-answer").textContent).toBe("HTTP 500 in 30 ms before; sending again…"));
    await waitFor(() => expect(within(screen.getByTestId("delivery")).getByTestId("delivery-status").textContent).toBe("Delivered"), { timeout: 4_000 });
    const row = screen.getByTestId("delivery");
    expect(within(row).getByTestId("delivery-answer").textContent).toBe("HTTP 200 in 12 ms");
    expect(within(row).getAllByRole("listitem").map((li) => li.textContent)).toEqual([expect.stringContaining("HTTP 200 · 12 ms"), expect.stringContaining("HTTP 500 · 30 ms")]);
  });
});
