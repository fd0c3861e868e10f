/**
 * Crash safety: the real service (the built dist/offers/main.mjs) is killed with SIGKILL while
 * claims are under way, then restarted on the same data. Every claim that was answered 200 is in the
 * ledger exactly once; no instance is in the ledger twice; every claimed instance has its ledger row
 * and every ledger row its claimed instance (the status change and the grant commit together).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createScratchPostgres, seedPgliteDataDir, contractDatabaseTargets } from "@/test-support/db/test-databases";
import { offersMigrations, openOffersDatabase } from "./db";
import { offerInstances, rewardLedger } from "./db/schema";
import { OffersEngine } from "./engine";
import { GameDirectory } from "./games";
import { SecretBox } from "./secret-box";
import { exited, serviceProcessEnv, startServiceProcess as startService, waitHealthy } from "@/test-support/offers/test-app";

const INSTANCES = 120;


describe.each(contractDatabaseTargets())("SIGKILL during claims on %s", (target) => {
  it("keeps every answered claim exactly once in the ledger", { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-kill-"));
    const scratch = target === "postgres" ? await createScratchPostgres({ template: offersMigrations }) : undefined;
    if (!scratch) await seedPgliteDataDir(path.join(dataDir, "offers"), offersMigrations);
    const secretKey = randomBytes(32).toString("hex");
    const apiKey = "kill-test-api-key-0123456789";
    const dbOptions = scratch ? { url: scratch.url, poolSize: 4 } : { dataDir: path.join(dataDir, "offers") };
    try {
      // Seed before the service starts (PGlite allows one process at a time).
      const instanceIds: string[] = [];
      {
        const database = await openOffersDatabase(dbOptions);
        const games = new GameDirectory(database.db, new SecretBox(secretKey));
        await games.createGame({ gameId: "kill-game", name: "Kill", clientId: "kill-client", apiKey });
        const engine = new OffersEngine({ db: database.db });
        await engine.upsertDefinition("kill-game", "gift", { name: "Gift", description: "", rewards: [{ kind: "coins", rewardId: "c", name: "Coins", amount: 1 }], durationSeconds: 86_400, realTime: false, priority: 0 });
        for (let i = 0; i < INSTANCES; i++) {
          const offer = await engine.assignOffer("kill-game", `p${i}`, "gift");
          await engine.fetchCampaigns("kill-game", `p${i}`, { viewing: true, includeQueued: false });
          instanceIds.push(offer.instanceId);
        }
        await database.close();
      }

      const { base, env } = await serviceProcessEnv(dataDir, secretKey, scratch ? { OFFERS_DATABASE_URL: scratch.url } : {});
      let log = "";
      let child = startService(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);

      const claim = (i: number) =>
        fetch(`${base}/v1/reward/sdk/claim`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-client-id": "kill-client", "x-api-key": apiKey },
          body: JSON.stringify({ kind: "offer", instanceId: instanceIds[i], playerId: `p${i}` }),
        }).then((r) => r.status);

      // Fire claims 8 at a time; kill once a third has been answered.
      const answered = new Map<number, number>();
      let next = 0;
      let killed = false;
      const worker = async () => {
        while (next < INSTANCES) {
          const i = next++;
          try {
            answered.set(i, await claim(i));
          } catch {
            // connection dropped by the kill: outcome unknown
          }
          if (!killed && answered.size >= INSTANCES / 3) {
            killed = true;
            child.kill("SIGKILL");
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      expect(killed).toBe(true);
      await exited(child);
      const ok = [...answered].filter(([, status]) => status === 200).map(([i]) => i);
      expect(ok.length).toBeGreaterThan(0);
      expect([...answered.values()].every((s) => s === 200)).toBe(true);

      // Restart on the same data: answered claims stay claimed; the rest can be claimed once.
      log = "";
      child = startService(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);
      for (const i of ok) expect(await claim(i), `instance ${i}`).toBe(409);
      const second = await Promise.all(instanceIds.map((_, i) => (answered.has(i) ? Promise.resolve(0) : claim(i))));
      for (const status of second) expect([0, 200, 409]).toContain(status);
      child.kill("SIGTERM");
      await exited(child);

      const database = await openOffersDatabase(dbOptions);
      try {
        const ledger = await database.db.select().from(rewardLedger).where(eq(rewardLedger.gameId, "kill-game"));
        const bySource = new Map<string, number>();
        for (const row of ledger) bySource.set(row.sourceId, (bySource.get(row.sourceId) ?? 0) + 1);
        for (const count of bySource.values()) expect(count).toBe(1);
        for (const i of ok) expect(bySource.get(instanceIds[i]), `answered claim ${i}`).toBe(1);
        // every instance is claimed now, each with exactly one grant
        expect(ledger).toHaveLength(INSTANCES);
        const rows = await database.db.select().from(offerInstances).where(eq(offerInstances.gameId, "kill-game"));
        expect(rows.every((r) => r.status === "claimed")).toBe(true);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    }
  });
});
