/**
 * A bulk compensation survives its instance: the built service (its own process) grants an approved
 * job to thousands of players in small batches and is killed with SIGKILL mid-job; restarted on the
 * same data, it continues the job. Every player of the job ends with exactly one grant (one ledger
 * row, one reward.granted event), and the job is done.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createScratchPostgres, seedPgliteDataDir, testDatabaseTargets } from "@/test-support/db/test-databases";
import { exited, serviceProcessEnv, startServiceProcess, waitHealthy } from "@/test-support/offers/test-app";
import { rowsOf } from "../db";
import { offersMigrations, openOffersDatabase } from "./db";
import { players } from "./db/schema";
import { GameDirectory } from "./games";
import { SecretBox } from "./secret-box";

const PLAYERS = 3_000;
const ADMIN_TOKEN = "bulk-kill-admin-token-0123456789";

describe.each(testDatabaseTargets())("SIGKILL during a bulk compensation on %s", (target) => {
  it("continues the job after a restart and grants every player exactly once", { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-bulk-kill-"));
    const scratch = target === "postgres" ? await createScratchPostgres({ template: offersMigrations }) : undefined;
    if (!scratch) await seedPgliteDataDir(path.join(dataDir, "offers"), offersMigrations);
    const secretKey = randomBytes(32).toString("hex");
    const dbOptions = scratch ? { url: scratch.url, poolSize: 4 } : { dataDir: path.join(dataDir, "offers") };
    const ids = Array.from({ length: PLAYERS }, (_, i) => `p${String(i).padStart(5, "0")}`);
    try {
      {
        const database = await openOffersDatabase(dbOptions);
        await new GameDirectory(database.db, new SecretBox(secretKey)).createGame({ gameId: "bulk-game", name: "Bulk", clientId: "bulk-client", apiKey: "bulk-api-key-0123456789" });
        const rows = ids.map((playerId) => ({ gameId: "bulk-game", playerId }));
        for (let i = 0; i < rows.length; i += 1_000) await database.db.insert(players).values(rows.slice(i, i + 1_000));
        await database.close();
      }

      const { base, env } = await serviceProcessEnv(dataDir, secretKey, {
        OFFERS_ADMIN_TOKEN: ADMIN_TOKEN,
        OFFERS_BULK_BATCH_SIZE: "20",
        OFFERS_BULK_CONCURRENCY: "2",
        OFFERS_SURFACING_POLL_MS: "200",
        ...(scratch ? { OFFERS_DATABASE_URL: scratch.url } : {}),
      });
      const admin = async (method: string, url: string, body?: unknown) => {
        const res = await fetch(`${base}/v1/admin/games/bulk-game${url}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        return (await res.json()) as { job: { jobId: string; status: string; progress: { granted: number; total: number } } };
      };

      let log = "";
      let child = startServiceProcess(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);
      await fetch(`${base}/v1/currencies/gold`, {
        method: "PUT",
        headers: { "x-api-key": "bulk-api-key-0123456789", "x-client-id": "bulk-client", "content-type": "application/json" },
        body: JSON.stringify({ name: "Gold", image: "https://img.example/gold.png" }),
      });
      const asked = await admin("POST", "/bulk-compensations", { kind: "coins", rewardId: "gold", amount: 10, reason: "Outage", actor: "sam", players: { list: ids.join("\n") } });
      expect(asked.job).toMatchObject({ status: "pending", progress: { total: PLAYERS } });
      const { jobId } = asked.job;
      expect((await admin("POST", `/bulk-compensations/${jobId}/approve`, { actor: "lee" })).job.status).toBe("running");

      // Kill once the job is under way but far from done.
      const deadline = Date.now() + 60_000;
      let seen = asked.job;
      while (Date.now() < deadline) {
        seen = (await admin("GET", `/bulk-compensations/${jobId}`)).job;
        if (seen.progress.granted >= 200) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      child.kill("SIGKILL");
      await exited(child);
      expect(seen.status).toBe("running");
      expect(seen.progress.granted).toBeLessThan(PLAYERS);

      log = "";
      child = startServiceProcess(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);
      const until = Date.now() + 120_000;
      while (Date.now() < until) {
        seen = (await admin("GET", `/bulk-compensations/${jobId}`)).job;
        if (seen.status === "done") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(seen).toMatchObject({ status: "done", progress: { granted: PLAYERS, total: PLAYERS } });
      child.kill("SIGTERM");
      await exited(child);

      const database = await openOffersDatabase(dbOptions);
      try {
        const count = async (table: string) =>
          rowsOf<{ players: string | number; rows: string | number }>(
            await database.db.execute(sql`select count(distinct player_id) as players, count(*) as rows from ${sql.identifier(table)} where source_id like ${`${jobId}:%`}`),
          ).map((r) => ({ players: Number(r.players), rows: Number(r.rows) }))[0];
        expect(await count("offers_reward_ledger")).toEqual({ players: PLAYERS, rows: PLAYERS });
        expect(await count("offers_reward_events")).toEqual({ players: PLAYERS, rows: PLAYERS });
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    }
  });
});
