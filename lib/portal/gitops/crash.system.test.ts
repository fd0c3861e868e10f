/**
 * Fault test: kill -9 of a portal process while it writes the config repository (catalog edits in
 * parallel, persistent-config commits) and approves app orders, at varied instants, eight times.
 * After each kill the next process opens everything as the portal does (test-support/portal/crash-harness.ts) and must
 * find: no git lock left, a working tree equal to HEAD, a catalog equal to HEAD's records, no order
 * in approving, no branch merged twice and no empty merge commit, and a write that succeeds.
 *
 * The portal database is PGlite in the run's data directory, or a scratch PostgreSQL database when
 * TEST_DATABASE_URL is set. Bounded (each process is killed or ends by itself), loopback only, and
 * everything is removed at the end.
 */
import { afterAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { simpleGit } from "simple-git";
import { createScratchPostgres, seedPgliteDataDir } from "@/test-support/db/test-databases";
import { builtTestProgram } from "@/test-support/built";
import { portalMigrations } from "../db/database";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import type { HarnessConfig, HarnessFacts } from "@/test-support/portal/crash-harness";

const ROUNDS = 8;
/**
 * Kill instants: even rounds after the process is ready, spread over the first ~3.5 s of work; odd
 * rounds just after an approval starts (whatever the machine's speed, approvals get interrupted; the
 * other writers start with that approval, so it does not wait for the repository behind them).
 */
const killDelays = Array.from({ length: ROUNDS }, (_, i) => (i % 2 === 0 ? 150 + i * 430 + Math.floor(Math.random() * 400) : Math.floor(Math.random() * 400)));
/** The longest wait for an approval to start in an odd round before killing anyway. */
const APPROVAL_WAIT_MS = 30_000;

const children = new Set<ChildProcess>();
let root: string | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  if (root) await rm(root, { recursive: true, force: true });
  await dropDatabase?.();
});

interface Run {
  child: ChildProcess;
  facts: Promise<HarnessFacts>;
  ready: Promise<void>;
  approving: Promise<void>;
  exited: Promise<void>;
  output: string[];
}

function start(config: HarnessConfig, tmp: string): Run {
  // Temp files of the killed processes stay inside the run's folder (removed at the end).
  const env = { ...process.env, TMPDIR: tmp };
  const child = spawn(process.execPath, [builtTestProgram("crash-harness"), JSON.stringify(config)], { cwd: process.cwd(), env, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  const output: string[] = [];
  let onFacts!: (f: HarnessFacts) => void;
  let onReady!: () => void;
  let failed!: (e: Error) => void;
  const facts = new Promise<HarnessFacts>((resolve, reject) => {
    onFacts = resolve;
    failed = reject;
  });
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  let onApproving!: () => void;
  const approving = new Promise<void>((resolve) => (onApproving = resolve));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    output.push(line);
    if (output.length > 200) output.shift();
    if (line.startsWith("facts ")) onFacts(JSON.parse(line.slice(6)) as HarnessFacts);
    if (line === "ready") onReady();
    if (line === "approving") onApproving();
  });
  createInterface({ input: child.stderr! }).on("line", (line) => output.push(`stderr: ${line}`));
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      children.delete(child);
      failed(new Error(`the harness ended (${signal ?? code}) before reporting:\n${output.slice(-20).join("\n")}`));
      resolve();
    }),
  );
  return { child, facts, ready, approving, exited, output };
}

function expectRecovered(facts: HarnessFacts, round: number): void {
  const context = `after kill ${round}`;
  expect(facts.locks, context).toEqual([]);
  expect(facts.status, context).toBe("");
  expect(facts.catalogMismatches, context).toEqual([]);
  expect(facts.ordersApproving, context).toBe(0);
  expect(facts.approvedMissing, context).toEqual([]);
  expect(facts.mergedTwice, context).toEqual([]);
  expect(facts.emptyMerges, context).toBe(0);
  expect(facts.nextWrite, context).toBe(true);
}

describe("kill -9 of the portal during config-repository writes and approvals", () => {
  it(`${ROUNDS} kills at varied instants: each restart finds the repository clean, the catalog equal to HEAD, no approval stuck or merged twice`, async () => {
    root = await mkdtemp(path.join(tmpdir(), "portal-crash-"));
    const shippedDir = path.join(root, "shipped");
    await mkdir(shippedDir);
    for (let i = 0; i < 12; i++) await writeFile(path.join(shippedDir, `svc-${i}.yaml`), yamlOf(validComponent(`svc-${i}`)));
    let databaseUrl: string | undefined;
    if (process.env.TEST_DATABASE_URL) {
      const scratch = await createScratchPostgres({ template: portalMigrations });
      databaseUrl = scratch.url;
      dropDatabase = scratch.drop;
    } else {
      // The first process finds the portal database migrated, as every later one does.
      await seedPgliteDataDir(path.join(root, "data", "portal"), portalMigrations);
    }
    const base: Omit<HarnessConfig, "round"> = { dataDir: path.join(root, "data"), shippedDir, databaseUrl };
    const tmp = path.join(root, "tmp");
    await mkdir(tmp);

    let recoveredApprovals = 0;
    const startups: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const began = Date.now();
      const run = start({ ...base, round, ordersFirst: round % 2 === 1 }, tmp);
      const facts = await run.facts;
      startups.push(Date.now() - began);
      if (round > 0) expectRecovered(facts, round);
      recoveredApprovals += facts.recoveredApprovals.length;
      await run.ready;
      if (round % 2 === 1) await Promise.race([run.approving, new Promise((r) => setTimeout(r, APPROVAL_WAIT_MS))]);
      await new Promise((r) => setTimeout(r, killDelays[round]));
      run.child.kill("SIGKILL");
      await run.exited;
    }
    const last = start({ ...base, round: ROUNDS, checkOnly: true }, tmp);
    const facts = await last.facts;
    expectRecovered(facts, ROUNDS);
    await last.exited;
    expect(last.child.exitCode).toBe(0);
    recoveredApprovals += facts.recoveredApprovals.length;

    // Seen from outside, after the last start: nothing locked, nothing uncommitted, work was done.
    const dir = path.join(base.dataDir, "config-repo");
    const locks = (await readdir(path.join(dir, ".git"), { recursive: true })).filter((f) => String(f).endsWith(".lock"));
    expect(locks).toEqual([]);
    // No private index of a commit a killed process was building is left behind.
    expect(await readdir(path.join(dir, ".git", "portal-scratch")).catch(() => [])).toEqual([]);
    expect((await simpleGit(dir).raw(["status", "--porcelain", "--untracked-files=all"])).trim()).toBe("");
    // The kills came during work: beyond the first commit and one probe write per start, the processes committed.
    expect(facts.commits).toBeGreaterThan(1 + ROUNDS + 1);
    console.log(
      `[crash test] kills ${killDelays.join(", ")} ms after ready (even rounds) or after an approval started (odd rounds); starts took ${startups.join(", ")} ms; ${facts.commits} commits, ${facts.ordersApproved} orders approved, ${recoveredApprovals} approvals finished at start-up`,
    );
  }, 240_000);
});
