/** The stages of one attempt (leased → sending → sent → outcome), with a sender of our own: no network, no database. */
import { describe, expect, it } from "vitest";
import { judge, leasedStage, prepare, send, type Sending } from "./attempt";
import type { LeasedDelivery } from "./rules";
import type { AttemptResult, Sender, SignedMessage } from "./sender";
import { deliveryRowFor, endpointRowFor, rewardEventRowFor } from "@/test-support/offers/delivery";

const NOW = new Date(Date.UTC(2026, 0, 1, 12));
const UNTIL = new Date(NOW.getTime() + 31_000);
const policy = { delaysMs: [1_000, 2_000], jitter: 0 };

function leased(fields: Partial<LeasedDelivery> = {}): LeasedDelivery {
  return { delivery: deliveryRowFor({ id: 7, messageId: "evt_7", tries: 1 }), event: rewardEventRowFor(), endpoint: endpointRowFor(), ...fields };
}

/** A sender that answers `result`, or fails as a stop cuts it short when its signal is aborted. */
function senderAnswering(result: AttemptResult): Sender & { sent: { url: string; secrets: string[]; message: SignedMessage }[] } {
  const sent: { url: string; secrets: string[]; message: SignedMessage }[] = [];
  return {
    sent,
    send: async (url, secrets, message, signal) => {
      sent.push({ url, secrets, message });
      return signal?.aborted ? { ok: false, statusCode: null, error: "delivery interrupted: the service is stopping", latencyMs: 1 } : result;
    },
    close: () => {},
  };
}

describe("an attempt's stages", () => {
  it("leased: the lease and the endpoint the slot table keys it by", () => {
    expect(leasedStage("lease-9", UNTIL, leased())).toMatchObject({ stage: "leased", token: "lease-9", until: UNTIL.getTime(), endpointId: "ep_1" });
  });

  it("sending: the event signed with the endpoint's secrets, webhook-id the message id, timestamp the attempt's", () => {
    const secretsAsked: string[] = [];
    const ready = prepare(leasedStage("lease-9", UNTIL, leased()), NOW, (endpoint) => {
      secretsAsked.push(endpoint.endpointId);
      return ["whsec_current", "whsec_previous"];
    });
    expect(ready).toMatchObject({ stage: "sending", token: "lease-9", deliveryId: 7, tries: 1, url: "https://games.example/webhooks", secrets: ["whsec_current", "whsec_previous"] });
    const { message } = ready as Sending;
    expect(message.id).toBe("evt_7");
    expect(message.timestamp).toBe(NOW);
    expect(JSON.parse(message.body)).toMatchObject({ id: "evt_1", type: "reward.granted" });
    expect(secretsAsked).toEqual(["ep_1"]);
  });

  it("nothing to send: straight to a failed outcome with the reason, and no secret decrypted", () => {
    for (const [fields, reason] of [
      [{ endpoint: null }, "the endpoint was deleted"],
      [{ event: null }, "the event is missing"],
    ] as const) {
      const ready = prepare(leasedStage("lease-9", UNTIL, leased(fields)), NOW, () => expect.unreachable("no secret is needed"));
      expect(ready).toEqual({
        stage: "outcome",
        attempt: { deliveryId: 7, token: "lease-9", attemptedAt: NOW, result: { ok: false, statusCode: null, error: reason, latencyMs: 0 }, outcome: { status: "failed", nextAttemptAt: null } },
      });
    }
  });

  it("sent, then judged: delivered on a 2xx, a retry per the schedule on anything else", async () => {
    const ready = prepare(leasedStage("lease-9", UNTIL, leased()), NOW, () => ["whsec_current"]) as Sending;
    const later = new Date(NOW.getTime() + 80);

    const delivered = await send(ready, senderAnswering({ ok: true, statusCode: 200, error: null, latencyMs: 80 }), new AbortController().signal);
    expect(delivered).toMatchObject({ stage: "sent", attemptedAt: NOW });
    if (delivered.stage !== "sent") throw new Error("sent expected");
    expect(judge(delivered, later, policy).attempt).toEqual({
      deliveryId: 7,
      token: "lease-9",
      attemptedAt: NOW,
      result: { ok: true, statusCode: 200, error: null, latencyMs: 80 },
      outcome: { status: "delivered", nextAttemptAt: null },
    });

    const refused = await send(ready, senderAnswering({ ok: false, statusCode: 500, error: "HTTP 500", latencyMs: 80 }), new AbortController().signal);
    if (refused.stage !== "sent") throw new Error("sent expected");
    // One try before this one: the second wait of the schedule.
    expect(judge(refused, later, policy).attempt.outcome).toEqual({ status: "pending", nextAttemptAt: new Date(later.getTime() + 2_000) });
  });

  it("interrupted: a failure while our stop is under way records nothing", async () => {
    const ready = prepare(leasedStage("lease-9", UNTIL, leased()), NOW, () => ["whsec_current"]) as Sending;
    const stopping = new AbortController();
    stopping.abort();
    const sender = senderAnswering({ ok: true, statusCode: 200, error: null, latencyMs: 1 });
    expect(await send(ready, sender, stopping.signal)).toEqual({ stage: "interrupted", token: "lease-9", deliveryId: 7 });
    expect(sender.sent).toHaveLength(1);
  });
});
