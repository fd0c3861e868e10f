/**
 * The real service (the built dist/offers/main.mjs) whose stdout and stderr readers go away (a log
 * shipper that died, a closed terminal): every log line it writes then fails with EPIPE. It must go on
 * answering, and still drain and stop cleanly on SIGTERM, logging as it does so.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exited, serviceProcessEnv, startServiceProcess, waitHealthy } from "@/test-support/offers/test-app";

describe("the service whose log reader is gone", () => {
  it("goes on answering and stops cleanly on SIGTERM", { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "offers-broken-output-"));
    // info: every request writes a line, so every request meets the broken pipe.
    const { base, env } = await serviceProcessEnv(dataDir, randomBytes(32).toString("hex"), { LOG_LEVEL: "info" });
    const child = startServiceProcess(env, { pipeStdout: true });
    let log = "";
    child.stdout!.on("data", (d) => (log += String(d)));
    child.stderr!.on("data", (d) => (log += String(d)));
    try {
      await waitHealthy(base, child, () => log);
      expect(log).toContain("Server listening");

      child.stdout!.destroy();
      child.stderr!.destroy();
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) {
        statuses.push((await fetch(`${base}/health`)).status);
        statuses.push((await fetch(`${base}/v1/no-such-route`)).status);
        statuses.push((await fetch(`${base}/v1/reward/sdk/claim`, { method: "POST", body: "{" })).status);
      }
      expect(new Set(statuses)).toEqual(new Set([200, 404, 401]));
      expect(child.exitCode).toBeNull();

      child.kill("SIGTERM");
      await exited(child);
      expect({ code: child.exitCode, signal: child.signalCode }).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && !child.signalCode) child.kill("SIGKILL");
      await exited(child);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
