/**
 * A surfacing job survives its instance: the real service (its own process) runs the activation job
 * of a definition over thousands of players and is killed with SIGKILL mid-job; restarted on the same
 * data, it resumes the job from its cursor once the lease runs out. Every matching player ends with
 * exactly one instance, and no other player has one.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createScratchPostgres, seedPgliteDataDir, testDatabaseTargets } from "@/test-support/db/test-databases";
import { offersMigrations, openOffersDatabase } from "./db";
import { offerInstances, players } from "./db/schema";
import { GameDirectory } from "./games";
import { SecretBox } from "./secret-box";
import { exited, serviceProcessEnv, startServiceProcess, waitHealthy } from "@/test-support/offers/test-app";

const PLAYERS = 4_000;
const ADMIN_TOKEN = "kill-admin-token-0123456789";

describe.each(testDatabaseTargets())("SIGKILL during a surfacing job on %s", (target) => {
  it("resumes the job after a restart and gives every matching player the offer exactly once", { timeout: 240_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-surfacing-kill-"));
    const scratch = target === "postgres" ? await createScratchPostgres({ template: offersMigrations }) : undefined;
    if (!scratch) await seedPgliteDataDir(path.join(dataDir, "offers"), offersMigrations);
    const secretKey = randomBytes(32).toString("hex");
    const dbOptions = scratch ? { url: scratch.url, poolSize: 4 } : { dataDir: path.join(dataDir, "offers") };
    try {
      // Seed before the service starts (PGlite allows one process at a time): even ids have a streak.
      {
        const database = await openOffersDatabase(dbOptions);
        await new GameDirectory(database.db, new SecretBox(secretKey)).createGame({ gameId: "job-game", name: "Job", clientId: "job-client", apiKey: "job-api-key-0123456789" });
        const rows = Array.from({ length: PLAYERS }, (_, i) => ({ gameId: "job-game", playerId: `p${String(i).padStart(5, "0")}`, loginStreak: i % 2 === 0 ? 5 : 0 }));
        for (let i = 0; i < rows.length; i += 1_000) await database.db.insert(players).values(rows.slice(i, i + 1_000));
        await database.close();
      }

      const { base, env } = await serviceProcessEnv(dataDir, secretKey, {
        OFFERS_ADMIN_TOKEN: ADMIN_TOKEN,
        OFFERS_SURFACING_CONCURRENCY: "1",
        OFFERS_SURFACING_LEASE_MS: "2000",
        OFFERS_SURFACING_POLL_MS: "200",
        ...(scratch ? { OFFERS_DATABASE_URL: scratch.url } : {}),
      });
      const admin = (method: string, url: string, body?: unknown) =>
        fetch(`${base}/v1/admin/games/job-game${url}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }).then((r) => r.json());
      const job = async () => (await admin("GET", "/definitions/streak/jobs")).jobs[0] as { status: string; playersEvaluated: number; attempts: number; activations: number } | undefined;

      let log = "";
      let child = startServiceProcess(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);
      const created = await admin("POST", "/definitions", {
        offerId: "streak",
        name: "Streak",
        rewards: [{ kind: "coins", rewardId: "gold", name: "Gold", amount: 1 }],
        durationSeconds: 86_400,
        audience: { field: "loginStreak", op: "gte", value: 3 },
        status: "active",
      });
      expect(created.job).toMatchObject({ status: "queued" });

      // Kill once the job is under way but far from done.
      const deadline = Date.now() + 60_000;
      let seen: Awaited<ReturnType<typeof job>>;
      while (Date.now() < deadline) {
        seen = await job();
        if (seen && seen.playersEvaluated >= 500) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill("SIGKILL");
      await exited(child);
      expect(seen!).toMatchObject({ status: "running" });
      expect(seen!.playersEvaluated).toBeLessThan(PLAYERS);

      log = "";
      child = startServiceProcess(env);
      child.stderr!.on("data", (d) => (log += String(d)));
      await waitHealthy(base, child, () => log);
      const until = Date.now() + 120_000;
      let finished: Awaited<ReturnType<typeof job>>;
      while (Date.now() < until) {
        finished = await job();
        if (finished?.status === "done") break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(finished!).toMatchObject({ status: "done", playersEvaluated: expect.any(Number) });
      expect(finished!.attempts).toBe(2);
      child.kill("SIGTERM");
      await exited(child);

      const database = await openOffersDatabase(dbOptions);
      try {
        const given = await database.db.select({ playerId: offerInstances.playerId }).from(offerInstances).where(eq(offerInstances.offerId, "streak"));
        const ids = given.map((g) => g.playerId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(PLAYERS / 2);
        expect(ids.every((id) => Number(id.slice(1)) % 2 === 0)).toBe(true);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    }
  });
});
