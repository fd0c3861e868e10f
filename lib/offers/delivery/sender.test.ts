import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateSigningSecret } from "./endpoints";
import { signatureHeader } from "./sender";

describe("webhook signatures", () => {
  const message = {
    id: "msg_2f1c",
    timestamp: new Date(),
    body: JSON.stringify({ type: "reward.granted", data: { playerId: "ünïcode-player", rewards: [{ kind: "coins", amount: 10 }] } }),
  };
  const headers = (signature: string) => ({
    "webhook-id": message.id,
    "webhook-timestamp": String(Math.floor(message.timestamp.getTime() / 1000)),
    "webhook-signature": signature,
  });

  it("signs as the standardwebhooks package does, and the package verifies it", () => {
    const secret = generateSigningSecret();
    const signature = signatureHeader([secret], message);
    expect(signature).toBe(new Webhook(secret).sign(message.id, message.timestamp, message.body));
    expect(new Webhook(secret).verify(message.body, headers(signature))).toMatchObject({ type: "reward.granted" });
  });

  it("signs with every secret during a rotation, each verifiable on its own", () => {
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const signature = signatureHeader([current, previous], message);
    expect(signature.split(" ")).toHaveLength(2);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(message.body, headers(signature))).toBeTruthy();
    expect(() => new Webhook(generateSigningSecret()).verify(message.body, headers(signature))).toThrow();
  });
});
