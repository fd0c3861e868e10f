/**
 * A portal-like process for the kill -9 test (lib/portal/gitops/crash.system.test.ts), which starts its bundle (built into
 * dist/test by tests/setup/built-service.ts): `node dist/test/crash-harness.mjs '<json>'`.
 *
 * It opens everything exactly as a portal process does (the portal database with its migrations,
 * the config repository through ensureConfigRepo + openCatalog, which recover it, the GitOps wiring,
 * then the recovery of interrupted approvals), prints one line `facts <json>` describing the state it
 * found after that recovery (locks, working tree, catalog against the commit, orders, merges), makes
 * one write to show writes work, prints `ready`, and then writes without pause (catalog updates in
 * parallel, persistent-config commits, app orders created and approved; `approving` is printed as an
 * approval starts) until it is killed.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { openDatabase } from "../../lib/db";
import { RepoGit } from "../../lib/scm/git";
import * as schema from "../../lib/portal/db/schema";
import { appOrders } from "../../lib/portal/db/schema/app-orders";
import { ensureConfigRepo } from "../../lib/catalog/repo";
import { openCatalog } from "../../lib/catalog/catalog";
import { parseComponentText } from "../../lib/catalog/parse";
import { wireGitOps } from "../../lib/portal/gitops/providers";
import { configFilePath } from "../../lib/portal/gitops/config-repo";
import { createOrder, type AppOrderDeps } from "../../lib/portal/app-orders/orders";
import { approveOrder, recoverInterruptedApprovals } from "../../lib/portal/app-orders/order-decisions";

export interface HarnessConfig {
  /** DATA_DIR of this portal. */
  dataDir: string;
  /** Shipped records copied into a new config repository. */
  shippedDir: string;
  /** PostgreSQL URL of the portal database; absent = PGlite under dataDir/portal. */
  databaseUrl?: string;
  /** Distinguishes the names this run creates. */
  round: number;
  /** Only report the facts, then exit (no work). */
  checkOnly?: boolean;
  /**
   * The other writers start once the first approval has, so that it does not queue behind their
   * commits for the repository (the kill of such a round comes during an approval).
   */
  ordersFirst?: boolean;
}

export interface HarnessFacts {
  recoveredApprovals: Array<{ name: string; status: string }>;
  /** Lock files left in the git directory after recovery. */
  locks: string[];
  /** `git status --porcelain --untracked-files=all` after recovery. */
  status: string;
  head: string;
  /** Commits on the branch. */
  commits: number;
  /** Records files at HEAD that differ from what the catalog serves (by name), or are missing from it. */
  catalogMismatches: string[];
  catalogSize: number;
  ordersApproving: number;
  ordersApproved: number;
  /** Approved orders whose branch is not in main, or whose record is not in the catalog. */
  approvedMissing: string[];
  /** Source branches merged into main more than once. */
  mergedTwice: string[];
  /** Merge commits whose second parent was already contained in the first (merges that changed nothing). */
  emptyMerges: number;
  nextWrite: boolean;
}

async function findLocks(gitDir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(gitDir, rel), { withFileTypes: true }).catch(() => [])) {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && child !== "objects") out.push(...(await findLocks(gitDir, child)));
    else if (e.name.endsWith(".lock")) out.push(child);
  }
  return out;
}

/** The contents of `objects` (e.g. `HEAD:path`), in order, read by one `git cat-file --batch`. */
async function blobsAt(git: RepoGit, objects: string[]): Promise<string[]> {
  if (objects.length === 0) return [];
  const out = Buffer.from(await git.raw(["cat-file", "--batch"], undefined, objects.map((o) => `${o}\n`).join("")));
  const texts: string[] = [];
  let at = 0;
  for (const object of objects) {
    const headerEnd = out.indexOf(10, at);
    const header = out.subarray(at, headerEnd).toString();
    const size = Number(/^\S+ blob (\d+)$/.exec(header)?.[1]);
    if (!Number.isFinite(size)) throw new Error(`git cat-file: ${object}: ${header}`);
    texts.push(out.subarray(headerEnd + 1, headerEnd + 1 + size).toString());
    at = headerEnd + 1 + size + 1;
  }
  return texts;
}

const eddie = { id: "eddie", name: "Eddie Engineer", requestId: "harness" };
const lee = { id: "lee", name: "Lee Lead", requestId: "harness" };

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? "{}") as HarnessConfig;
  const started = performance.now();
  const stage = (what: string) => process.env.HARNESS_TIMING && console.log(`stage ${what} ${Math.round(performance.now() - started)}`);
  const handle = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, "portal"),
    schema,
    migrationsDir: path.resolve("lib/portal/db/migrations"),
    migrationsTable: "__portal_migrations",
  });
  stage("database");
  // As the portal's services (lib/portal/services.ts) open the catalog, GitOps and app orders.
  const repo = await ensureConfigRepo({ dataDir: config.dataDir, shippedDir: config.shippedDir });
  const catalog = await openCatalog({ repo });
  stage("catalog");
  const gitops = await wireGitOps(handle.db, catalog, { provider: "local", dataDir: config.dataDir, gitlabUrl: "http://gitlab.invalid", demo: false });
  const deps: AppOrderDeps = { db: handle.db, catalog, config: gitops.config };
  const recovered = await recoverInterruptedApprovals(deps);
  stage("approvals");

  // A handful of git processes, however many files, orders and merges there are: each start pays for them.
  const git = new RepoGit(repo.dir);
  const head = (await git.raw(["rev-parse", "HEAD"])).trim();
  // Every commit of the branch with its parents: what is contained in HEAD, and what each merge joined.
  const parentsOf = new Map<string, string[]>();
  for (const line of (await git.raw(["rev-list", "--parents", "HEAD"])).trim().split("\n").filter(Boolean)) {
    const [commit, ...parents] = line.split(" ");
    parentsOf.set(commit, parents);
  }
  const isAncestor = (ancestor: string, of: string) => {
    const seen = new Set<string>();
    const queue = [of];
    while (queue.length > 0) {
      const commit = queue.pop()!;
      if (commit === ancestor) return true;
      if (seen.has(commit)) continue;
      seen.add(commit);
      queue.push(...(parentsOf.get(commit) ?? []));
    }
    return false;
  };

  const mismatches: string[] = [];
  const listed = (await git.raw(["ls-tree", "--name-only", "HEAD", "--", "components/"])).trim().split("\n").filter(Boolean);
  const texts = await blobsAt(git, listed.map((file) => `HEAD:${file}`));
  const atHead = new Set<string>();
  for (const [i, file] of listed.entries()) {
    const parsed = parseComponentText(file, texts[i]);
    if (!parsed.ok) continue;
    atHead.add(parsed.component.metadata.name);
    const served = catalog.get(parsed.component.metadata.name);
    if (!served || JSON.stringify(served.component) !== JSON.stringify(parsed.component) || served.stale) mismatches.push(parsed.component.metadata.name);
  }
  for (const e of catalog.entries()) if (!atHead.has(e.name)) mismatches.push(`${e.name} (not at HEAD)`);

  const orders = await handle.db.select().from(appOrders);
  const tips = new Map(
    (await git.raw(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/"]))
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" ") as [string, string])
      .map(([ref, tip]) => [ref.slice("refs/heads/".length), tip]),
  );
  const approvedMissing: string[] = [];
  for (const o of orders.filter((x) => x.status === "approved")) {
    const tip = o.sourceBranch ? tips.get(o.sourceBranch) : undefined;
    // Contained: the branch's tip is a commit of HEAD's history.
    const contained = tip ? parentsOf.has(tip) : false;
    if (!contained || !catalog.get(o.name)) approvedMissing.push(o.name);
  }
  const merges = (await git.raw(["log", "--merges", "--format=%P%x09%s", "HEAD"])).trim().split("\n").filter(Boolean);
  const perBranch = new Map<string, number>();
  let emptyMerges = 0;
  for (const line of merges) {
    const [parents, subject] = line.split("\t");
    const [first, second] = parents.split(" ");
    const branch = /^Merge branch '([^']+)'/.exec(subject)?.[1] ?? parents;
    perBranch.set(branch, (perBranch.get(branch) ?? 0) + 1);
    if (isAncestor(second, first)) emptyMerges++;
  }

  const probe = catalog.entries()[0];
  // A refused write throws; the facts record it as a failed next write, with why.
  const nextWrite = probe
    ? await catalog.update(probe.name, { mode: "merge", body: { metadata: { displayName: `Probe ${config.round}` } }, ifMatch: "*", author: { id: "probe", name: "Probe" } }).then(
        (r) => r.ok,
        (e: unknown) => (console.log(`error probe: ${(e as Error).message}`), false),
      )
    : false;

  const facts: HarnessFacts = {
    recoveredApprovals: recovered.map((r) => ({ name: r.name, status: r.status })),
    locks: await findLocks(path.join(repo.dir, ".git")),
    status: (await git.raw(["status", "--porcelain", "--untracked-files=all"])).trim(),
    head,
    commits: Number((await git.raw(["rev-list", "--count", "HEAD"])).trim()),
    catalogMismatches: mismatches,
    catalogSize: catalog.size,
    ordersApproving: orders.filter((o) => o.status === "approving").length,
    ordersApproved: orders.filter((o) => o.status === "approved").length,
    approvedMissing,
    mergedTwice: [...perBranch].filter(([, n]) => n > 1).map(([b]) => b),
    emptyMerges,
    nextWrite,
  };
  stage("facts");
  console.log(`facts ${JSON.stringify(facts)}`);
  if (config.checkOnly) {
    await handle.close();
    return;
  }
  console.log("ready");

  const names = catalog.entries().map((e) => e.name);
  let n = 0;
  const pick = () => names[Math.floor(Math.random() * names.length)];
  const update = async () => {
    const name = pick();
    await catalog.update(name, { mode: "merge", body: { metadata: { displayName: `Edit ${config.round}.${n++}` } }, ifMatch: "*", author: { id: "ed", name: "Ed" } });
  };
  const commitConfig = async () => {
    const name = pick();
    await gitops.config.commit([{ path: configFilePath(name, "dev"), content: `ROUND: ${config.round}\nN: ${n++}\n` }], `Config of ${name}`, { id: "olga", name: "Olga" });
  };
  let approvalStarted!: () => void;
  const firstApproval = new Promise<void>((resolve) => (approvalStarted = resolve));
  const order = async () => {
    const name = `order-${config.round}-${n++}`;
    const o = await createOrder(
      deps,
      { name, displayName: `Order ${name}`, kind: "service", owners: [{ user: "eddie" }], environments: ["dev"], repoPath: `team/${name}` },
      eddie,
    );
    console.log("approving");
    approvalStarted();
    await approveOrder(deps, o.id, lee);
  };
  // Independent lanes, so that a kill finds every kind of write in flight.
  const lane = async (label: string, fn: () => Promise<void>) => {
    for (;;) {
      const t = performance.now();
      await fn().catch((e: unknown) => console.log(`error ${label}: ${(e as Error).message}`));
      console.log(process.env.HARNESS_TIMING ? `op ${label} ${Math.round(performance.now() - t)}` : `op ${label}`);
    }
  };
  const orderLanes = [lane("order", order), lane("order", order)];
  if (config.ordersFirst) await firstApproval;
  await Promise.all([...orderLanes, lane("update", update), lane("update", update), lane("config", commitConfig)]);
}

main().catch((e: unknown) => {
  console.error(`harness failed: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
});
