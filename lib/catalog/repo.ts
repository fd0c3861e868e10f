/**
 * The config repository: a git working copy that holds components/*.yaml.
 * - Embedded default: at first start the shipped config/components/ is copied into
 *   DATA_DIR/config-repo/components/ and committed (git init + initial commit); later starts reuse it.
 * - CONFIG_REPO_URL: any git remote or local path, cloned into DATA_DIR/config-repo-<hash>/; refresh
 *   pulls (fast-forward only) and writes are pushed.
 * Both are prepared in a scratch folder and renamed into place, so a crash during the first start
 * never leaves a half-made repository that later starts would take for a finished one.
 * Reading and writing go through store.ts (committed content only, one writer).
 */
import "server-only";
import { simpleGit, type SimpleGit } from "simple-git";
import { createHash, randomBytes } from "node:crypto";
import { cp, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

export const COMPONENTS_SUBDIR = "components";

export interface ConfigRepo {
  /** Absolute path of the working copy. */
  dir: string;
  /** Folder of the records relative to dir ("components", or "" when the repository keeps them at its root). */
  componentsSubdir: string;
  /** True when cloned from CONFIG_REPO_URL: refresh pulls, writes push. */
  remote: boolean;
  /** Where it came from (a URL, a path, or the shipped folder). */
  source: string;
  git: SimpleGit;
}

export interface EnsureConfigRepoOptions {
  dataDir: string;
  /** Shipped records (config/components). */
  shippedDir: string;
  remoteUrl?: string;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(
    () => true,
    () => false,
  );
}

/** Committer identity local to the repository, so commits never depend on the host's git config. */
async function configureIdentity(git: SimpleGit): Promise<void> {
  await git.addConfig("user.name", "Platform Portal");
  await git.addConfig("user.email", "portal@localhost");
  await git.addConfig("commit.gpgsign", "false");
}

/** "components" when the committed tree has that entry (whatever it is: a link is reported by the loader), else the root. */
async function pickComponentsSubdir(git: SimpleGit): Promise<string> {
  const out = await git.raw(["ls-tree", "--name-only", "HEAD", "--", COMPONENTS_SUBDIR]).catch(() => "");
  return out.trim() ? COMPONENTS_SUBDIR : "";
}

/** Builds a repository in a scratch folder beside `dir`, then renames it into place. */
async function createAtomically(dir: string, make: (scratch: string) => Promise<void>): Promise<void> {
  const scratch = `${dir}.new-${randomBytes(4).toString("hex")}`;
  try {
    await make(scratch);
    await rm(dir, { recursive: true, force: true });
    await rename(scratch, dir);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Scratch folders of first starts that died before their rename. */
async function removeLeftovers(dataDir: string, base: string): Promise<void> {
  for (const name of await readdir(dataDir).catch(() => [] as string[])) {
    if (name.startsWith(`${base}.new-`)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}

export async function ensureConfigRepo(options: EnsureConfigRepoOptions): Promise<ConfigRepo> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  if (options.remoteUrl) {
    const hash = createHash("sha1").update(options.remoteUrl).digest("hex").slice(0, 10);
    const base = `config-repo-${hash}`;
    const dir = path.join(dataDir, base);
    await removeLeftovers(dataDir, base);
    if (!(await exists(path.join(dir, ".git")))) {
      const url = options.remoteUrl;
      await createAtomically(dir, async (scratch) => {
        await simpleGit().clone(url, scratch);
        await configureIdentity(simpleGit(scratch));
      });
    }
    const git = simpleGit(dir);
    return { dir, componentsSubdir: await pickComponentsSubdir(git), remote: true, source: options.remoteUrl, git };
  }
  const dir = path.join(dataDir, "config-repo");
  await removeLeftovers(dataDir, "config-repo");
  if (!(await exists(path.join(dir, ".git")))) {
    await createAtomically(dir, async (scratch) => {
      const target = path.join(scratch, COMPONENTS_SUBDIR);
      await mkdir(target, { recursive: true });
      if (await exists(options.shippedDir)) {
        for (const name of await readdir(options.shippedDir)) {
          if (/\.ya?ml$/.test(name)) await cp(path.join(options.shippedDir, name), path.join(target, name));
        }
      }
      // The shipped scorecard rules (config/scorecards beside config/components), changed by review from then on.
      const shippedRules = path.join(options.shippedDir, "..", "scorecards");
      if (await exists(path.join(shippedRules, "rules.yaml"))) {
        await mkdir(path.join(scratch, "scorecards"), { recursive: true });
        await cp(path.join(shippedRules, "rules.yaml"), path.join(scratch, "scorecards", "rules.yaml"));
      }
      const git = simpleGit(scratch);
      await git.raw(["init", "--quiet", "--initial-branch=main"]);
      await configureIdentity(git);
      await git.add(".");
      await git.commit("Initial catalog from the shipped config/components", undefined, { "--allow-empty": null });
      // One pack instead of a loose object per file: reading the records back stays fast.
      await git.raw(["repack", "-a", "-d", "-q"]);
    });
  }
  const git = simpleGit(dir);
  return { dir, componentsSubdir: COMPONENTS_SUBDIR, remote: false, source: options.shippedDir, git };
}

/** A git author string from a user: "Name <email>", with characters git would misread removed. */
export function authorString(author: { name: string; email?: string; id: string }): string {
  const clean = (s: string) => s.replace(/[<>\n\r]/g, "").trim();
  const name = clean(author.name) || clean(author.id) || "unknown";
  const email = clean(author.email ?? "") || `${clean(author.id).replace(/[^A-Za-z0-9._-]/g, "_") || "user"}@users.portal.invalid`;
  return `${name} <${email}>`;
}
