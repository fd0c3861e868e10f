import { fork } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * A process whose stdout and stderr readers are gone, with Next.js's own uncaughtException logger
 * (router-server.js), logging 20 lines: how many uncaught exceptions it then has.
 */
async function uncaughtAfterOutputBreaks(withGuard: boolean): Promise<number> {
  const child = fork(path.join(__dirname, "broken-output.fixture.ts"), withGuard ? ["--guard"] : [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  try {
    await new Promise<void>((resolve) => child.once("message", () => resolve()));
    child.stdout!.destroy();
    child.stderr!.destroy();
    const answer = new Promise<number>((resolve) => child.once("message", (m) => resolve((m as { uncaught: number }).uncaught)));
    child.send("log");
    return await answer;
  } finally {
    child.kill("SIGKILL");
  }
}

describe("output whose reader is gone", () => {
  it("is dropped: no uncaught exception, so no loop of logging the failure to log", async () => {
    expect(await uncaughtAfterOutputBreaks(true)).toBe(0);
  });

  it("without the guard, loops: each failed write is an uncaught exception whose log fails again", async () => {
    expect(await uncaughtAfterOutputBreaks(false)).toBeGreaterThan(20);
  });
});
