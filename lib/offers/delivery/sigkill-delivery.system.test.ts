/**
 * Crash safety of reward delivery: the real service (the built dist/offers/main.mjs) commits
 * claims while its webhook receiver hangs, so their deliveries are in flight or still queued, and
 * is killed with SIGKILL. Restarted on the same data, it delivers every committed reward event, with
 * a valid signature: none is lost between the commit and the delivery.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createScratchPostgres, seedPgliteDataDir, testDatabaseTargets } from "@/test-support/db/test-databases";
import { offersMigrations, openOffersDatabase } from "../db";
import { OffersEngine } from "../engine";
import { GameDirectory } from "../games";
import { RewardFeedResponse } from "../contract";
import { SecretBox } from "../secret-box";
import { exited, serviceProcessEnv, startServiceProcess as startService, waitHealthy } from "@/test-support/offers/test-app";
import { WebhookEndpoints } from "./endpoints";
import { eventually, startReceiver } from "@/test-support/offers/delivery";

const CLAIMS = 24;

describe.each(testDatabaseTargets())("SIGKILL between commit and delivery on %s", (target) => {
  it("delivers every committed reward event after the restart", { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-kill-delivery-"));
    const scratch = target === "postgres" ? await createScratchPostgres({ template: offersMigrations }) : undefined;
    if (!scratch) await seedPgliteDataDir(path.join(dataDir, "offers"), offersMigrations);
    const secretKey = randomBytes(32).toString("hex");
    const apiKey = "kill-delivery-api-key-0123456789";
    const dbOptions = scratch ? { url: scratch.url, poolSize: 4 } : { dataDir: path.join(dataDir, "offers") };
    const receiver = await startReceiver();
    receiver.behave(() => "hang");
    let child: ChildProcess | undefined;
    try {
      // Seed before the service starts (PGlite allows one process at a time).
      const instanceIds: string[] = [];
      {
        const database = await openOffersDatabase(dbOptions);
        const box = new SecretBox(secretKey);
        await new GameDirectory(database.db, box).createGame({ gameId: "kill-game", name: "Kill", clientId: "kill-client", apiKey });
        const engine = new OffersEngine({ db: database.db });
        await engine.upsertDefinition("kill-game", "gift", { name: "Gift", description: "", rewards: [{ kind: "coins", rewardId: "c", name: "Coins", amount: 1 }], durationSeconds: 86_400, realTime: false, priority: 0 });
        for (let i = 0; i < CLAIMS; i++) {
          const offer = await engine.assignOffer("kill-game", `p${i}`, "gift");
          await engine.fetchCampaigns("kill-game", `p${i}`, { viewing: true, includeQueued: false });
          instanceIds.push(offer.instanceId);
        }
        const endpoint = await new WebhookEndpoints(database.db, box, { now: () => new Date() }, { allowPrivate: true }).create("kill-game", { url: receiver.url });
        receiver.secret = endpoint.secret;
        await database.close();
      }

      const { base, env } = await serviceProcessEnv(dataDir, secretKey, {
        // The receiver is on loopback.
        OFFERS_WEBHOOK_ALLOW_PRIVATE: "1",
        OFFERS_WEBHOOK_TIMEOUT_MS: "1500",
        OFFERS_WEBHOOK_POLL_MS: "50",
        ...(scratch ? { OFFERS_DATABASE_URL: scratch.url } : {}),
      });
      const headers = { "content-type": "application/json", "x-client-id": "kill-client", "x-api-key": apiKey };
      let log = "";
      child = startService(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);

      // Every claim is answered (committed); the receiver hangs, so none of their deliveries completes.
      const statuses = await Promise.all(
        instanceIds.map((instanceId, i) =>
          fetch(`${base}/v1/reward/sdk/claim`, { method: "POST", headers, body: JSON.stringify({ kind: "offer", instanceId, playerId: `p${i}` }) }).then((r) => r.status),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
      await eventually(() => expect(receiver.received.length).toBeGreaterThan(0));
      child.kill("SIGKILL");
      await exited(child);
      // Some or all of the deliveries reached the receiver before the kill, and it answered none of
      // them: no delivery was completed, whichever of them the worker had sent.

      // The receiver recovers; the service restarts on the same data.
      receiver.behave(() => 200);
      log = "";
      child = startService(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);

      const feed = RewardFeedResponse.parse(await (await fetch(`${base}/v1/rewards/events?limit=500`, { headers })).json());
      expect(feed.events).toHaveLength(CLAIMS);
      const ids = new Set(feed.events.map((e) => e.id));
      const delivered = await eventually(() => {
        const verified = new Set(receiver.received.filter((r) => r.verified !== null).map((r) => r.id));
        for (const id of ids) expect(verified.has(id), `event ${id} delivered`).toBe(true);
        return verified;
      }, 60_000);
      // Nothing but these events was sent, and each verified body is the feed's event.
      expect(delivered).toEqual(ids);
      const byId = new Map(feed.events.map((e) => [e.id, e]));
      for (const r of receiver.received.filter((x) => x.verified !== null)) expect(r.verified).toEqual(byId.get(r.id));
      const health = (await (await fetch(`${base}/health`)).json()) as { delivery: { failed: number } };
      expect(health.delivery).toMatchObject({ failed: 0 });
      child.kill("SIGTERM");
      await exited(child);
    } finally {
      if (child && child.exitCode === null && !child.signalCode) {
        child.kill("SIGKILL");
        await exited(child);
      }
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    }
  });
});
