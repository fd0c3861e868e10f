/**
 * The runner behind `npm start` and `npm run dev`: a service that fails to start ends the run at once,
 * non-zero, naming the service and the reason; a signal ends it at once; nothing outlives it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../test-support/throwaway";

const dir = mkdtempSync(path.join(os.tmpdir(), "services-runner-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const runnerUrl = pathToFileURL(path.resolve("scripts/lib/services.mjs")).href;


/** A service that answers 200 on /health and records its pid in a file. */
function healthyService(name: string, port: number) {
  const code = `const http=require("node:http");require("node:fs").writeFileSync(${JSON.stringify(path.join(dir, `${name}.pid`))},String(process.pid));http.createServer((q,s)=>s.end("ok")).listen(${port},"127.0.0.1")`;
  return { name, command: process.execPath, args: ["-e", code], healthUrl: `http://127.0.0.1:${port}/health` };
}

function run(services: unknown[], options: object = {}) {
  const file = path.join(dir, `runner-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(
    file,
    `import { runServices } from ${JSON.stringify(runnerUrl)};
const { stopped, ready } = runServices(${JSON.stringify(services)}, ${JSON.stringify(options)});
ready.then((up) => console.log("ready:" + up));
process.exit(await stopped);`,
  );
  const child = spawn(process.execPath, [file], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  const started = Date.now();
  const exited = new Promise<{ code: number | null; ms: number; out: string }>((resolve) =>
    child.on("exit", (code) => resolve({ code, ms: Date.now() - started, out })),
  );
  return { child, exited, output: () => out };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitUntil(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return check();
}

describe("service runner", () => {
  it("exits non-zero at once when a service fails to start, naming it and its reason, and stops the others", async () => {
    const port = await freePort();
    const failing = { name: "offers", command: process.execPath, args: ["-e", "console.error('OFFERS_SECRET_KEY does not match the stored keys'); process.exit(3)"], healthUrl: `http://127.0.0.1:${await freePort()}/health` };
    const { exited } = run([failing, healthyService("portal", port)]);
    const result = await exited;
    expect(result.code).not.toBe(0);
    expect(result.out).toContain("[offers] failed to start: exited with code 3");
    expect(result.out).toContain("OFFERS_SECRET_KEY does not match the stored keys");
    expect(result.out).not.toContain("ready:true");
    // Well under the 180 s health deadline the old runner waited out.
    expect(result.ms).toBeLessThan(20_000);
    const { readFileSync, existsSync } = await import("node:fs");
    const pidFile = path.join(dir, "portal.pid");
    if (existsSync(pidFile)) expect(await waitUntil(() => !alive(Number(readFileSync(pidFile, "utf8"))))).toBe(true);
  });

  it("names a service that never answers its health URL once the start deadline passes", async () => {
    const silent = { name: "portal", command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], healthUrl: `http://127.0.0.1:${await freePort()}/health` };
    const result = await run([silent], { startTimeoutMs: 1_500 }).exited;
    expect(result.code).not.toBe(0);
    expect(result.out).toMatch(/\[portal\] failed to start: did not answer http:\/\/127\.0\.0\.1:\d+\/health within 2 s/);
  });

  it("stops at once on SIGTERM while a service is still starting", async () => {
    const silent = { name: "offers", command: process.execPath, args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(path.join(dir, "slow.pid"))},String(process.pid));setInterval(() => {}, 1000)`], healthUrl: `http://127.0.0.1:${await freePort()}/health` };
    const { child, exited } = run([silent]);
    const { existsSync, readFileSync } = await import("node:fs");
    const pidFile = path.join(dir, "slow.pid");
    expect(await waitUntil(() => existsSync(pidFile))).toBe(true);
    const signalled = Date.now();
    child.kill("SIGTERM");
    const result = await exited;
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(result.code).toBe(0);
    expect(await waitUntil(() => !alive(Number(readFileSync(pidFile, "utf8"))))).toBe(true);
  });

  it("reports ready once every service answers, and keeps running", async () => {
    const { child, exited, output } = run([healthyService("offers", await freePort()), healthyService("portal", await freePort())]);
    expect(await waitUntil(() => output().includes("ready:true"))).toBe(true);
    expect(child.exitCode).toBeNull();
    child.kill("SIGTERM");
    expect((await exited).code).toBe(0);
  });
});
