/**
 * A config remote for tests, benchmarks and journeys, made with the git command alone: nothing of the portal is loaded, so
 * plain Node (Playwright, a benchmark) may import it.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import path from "node:path";

/**
 * A config remote (what CONFIG_REPO_URL names) under `root`: a repository `upstream` whose `components` folder
 * holds `records` (file name → text) or a copy of the folder `records` names, committed on main, and its bare
 * clone `config.git`, which `upstream` has as origin (a test pushes "someone else's" change from there).
 */
export async function createConfigRemote(root: string, records: Record<string, string> | string): Promise<{ bare: string; work: string }> {
  const work = path.join(root, "upstream");
  const bare = path.join(root, "config.git");
  const git = (...args: string[]) => promisify(execFile)("git", args, { maxBuffer: 1 << 26 });
  await git("init", "--quiet", "--initial-branch=main", work);
  await git("-C", work, "config", "user.name", "Upstream");
  await git("-C", work, "config", "user.email", "up@example.com");
  await git("-C", work, "config", "commit.gpgsign", "false");
  const components = path.join(work, "components");
  if (typeof records === "string") await cp(records, components, { recursive: true });
  else {
    await mkdir(components, { recursive: true });
    for (const [name, text] of Object.entries(records)) await writeFile(path.join(components, name), text);
  }
  await git("-C", work, "add", ".");
  await git("-C", work, "commit", "--quiet", "-m", "seed");
  await git("clone", "--quiet", "--bare", work, bare);
  await git("-C", work, "remote", "add", "origin", bare);
  return { bare, work };
}
