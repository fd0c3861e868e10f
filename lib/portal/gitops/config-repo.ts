/**
 * Writes to the config repository through the catalog's store, the repository's one writer: a direct
 * commit (operators) is one commit of every file with the user as author, built without touching the
 * working tree and published by compare-and-swap (pushed when the repository has a remote; a refused
 * push moves the branch back), so a failure or a crash at any instant leaves the old commit or the
 * new one. Reads see committed content only. A proposal (engineers) is a branch plus a merge request
 * through the provider that serves the config repository.
 *
 * Layout of persistent config: config/<component>/<environment>.yaml at the repository root, a flat
 * YAML mapping (see values.ts). Edits go through the catalog's renderUpdate, so comments and key order stay.
 */
import "server-only";
import path from "node:path";
import { createHash } from "node:crypto";
import { parseDocument } from "yaml";
import type { Catalog, Author } from "../../catalog/catalog";
import { identityOf } from "../../catalog/store";
import { renderUpdate } from "../../catalog/writeback";
import { ScmError, type ScmMergeRequest, type ScmProvider } from "../../scm/types";
import { configValuesSchema, type ConfigValues } from "./config-values";

export interface FileWrite {
  /** Path relative to the repository root. */
  path: string;
  /** New text; null removes the file. */
  content: string | null;
}

export interface ConfigRepoTarget {
  /** Serves merge requests of the config repository. */
  provider: ScmProvider;
  /** The config repository's path in that provider. */
  repo: string;
}

export function configFilePath(component: string, environment: string): string {
  return `config/${component}/${environment}.yaml`;
}

export function componentFilePath(catalog: Catalog, name: string): string {
  return path.posix.join(catalog.repo.componentsSubdir.split(path.sep).join("/"), `${name}.yaml`);
}

/**
 * Branch of a proposal: portal/<scope>/<slug>-<key>; <scope> is the component name or "import", <key> the
 * first 12 hex digits of the proposal's key (proposalKey), so one proposal always names one branch.
 */
export function proposalBranch(scope: string, slug: string, key: string): string {
  return `portal/${scope}/${slug.replace(/[^a-z0-9-]/gi, "-").toLowerCase().slice(0, 40)}-${key.slice(0, 12)}`;
}

/**
 * What makes two proposals the same one: the same author, the same base commit of the config repository,
 * the same scope and title, the same files with the same content. A person who sends a proposal twice
 * (a double-click, a retry) sends the same key.
 */
export function proposalKey(proposal: { author: string; base: string | null; scope: string; title: string; files: FileWrite[] }): string {
  const files = [...proposal.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => [f.path, f.content]);
  return createHash("sha256")
    .update(JSON.stringify([proposal.author, proposal.base, proposal.scope, proposal.title, files]))
    .digest("hex");
}

export class ConfigRepository {
  constructor(
    readonly catalog: Catalog,
    readonly target: ConfigRepoTarget,
  ) {}

  get dir(): string {
    return this.catalog.repo.dir;
  }

  private abs(rel: string): string {
    const p = path.resolve(this.dir, rel);
    if (!p.startsWith(path.resolve(this.dir) + path.sep)) throw new ScmError("invalid", `${rel} is outside the repository`);
    return p;
  }

  /** Committed text of a file (the branch's head); null when absent. A symbolic link is refused (ScmError invalid). */
  async readText(rel: string): Promise<string | null> {
    this.abs(rel);
    return this.catalog.store.readText(rel);
  }

  /** Persistent values of one environment ({} when the file does not exist). Throws on a file that is not a valid map. */
  async readValues(component: string, environment: string): Promise<ConfigValues> {
    const text = await this.readText(configFilePath(component, environment));
    return parseValues(text, configFilePath(component, environment));
  }

  async head(): Promise<string | null> {
    return this.catalog.store.head();
  }

  /** One commit of every file, or nothing at all. Answers the commit SHA (null when nothing changed). */
  async commit(files: FileWrite[], message: string, author: Author): Promise<string | null> {
    for (const f of files) this.abs(f.path);
    let result: string | null;
    try {
      result = await this.catalog.exclusive(async () => {
        const { commit } = await this.catalog.store.write(async (base) => {
          const changed: FileWrite[] = [];
          for (const f of files) if ((await base.readText(f.path).catch(() => undefined)) !== f.content) changed.push(f);
          return { plan: changed.length ? { files: changed, message, author } : null, value: null };
        });
        return commit;
      });
    } catch (e) {
      if (e instanceof ScmError && e.code === "invalid") throw e;
      throw new ScmError("conflict", `the change could not be committed to the config repository: ${(e as Error).message.split("\n")[0]}`);
    }
    await this.catalog.refresh({ pull: false });
    return result;
  }

  /**
   * The commit that last changed `files`, when `author` made it with `message` within the last `withinMs`:
   * the same change sent twice (a double-click, a retry) finds the commit the first one made. Null otherwise.
   */
  async recentCommitOf(files: string[], message: string, author: Author, withinMs: number, now = Date.now()): Promise<string | null> {
    const head = await this.head();
    if (head === null || files.length === 0) return null;
    for (const f of files) this.abs(f);
    const out = await this.catalog.store.git.raw(["log", "-1", "--format=%H%x00%ae%x00%ct%x00%B", head, "--", ...files]);
    const [sha, email, seconds, body] = out.split("\0");
    if (!sha || !seconds || body === undefined) return null;
    const recent = now - Number(seconds) * 1000 <= withinMs;
    return recent && email === authorOf(author).email && body.trim() === message.trim() ? sha.trim() : null;
  }

  /**
   * One branch with one commit of every file, and a merge request into the default branch. The same
   * proposal again (proposalKey: same author, base commit and change) while its merge request is open
   * answers that merge request and opens no other. The branch is named by the key, so the rule holds
   * across instances: the provider opens one merge request per source branch (GitLab refuses a second
   * with 409, as the local provider does), and the one refused answers the one opened.
   */
  async propose(options: { scope: string; files: FileWrite[]; title: string; description: string; author: Author }): Promise<ScmMergeRequest> {
    const { provider, repo } = this.target;
    const key = proposalKey({ author: options.author.id, base: await this.head(), scope: options.scope, title: options.title, files: options.files });
    const branch = proposalBranch(options.scope, options.title, key);
    const open = await this.openMergeRequestOf(branch);
    if (open) return open;
    // The branch may be there already: the same proposal at the same instant, or one whose merge request
    // was closed (it holds exactly this change on this base, so it is reused).
    if ((await provider.resolveRef(repo, branch)) === null) {
      try {
        await provider.commitFiles(repo, {
          branch,
          message: options.title,
          author: authorOf(options.author),
          files: options.files.map((f) => ({ path: f.path, content: f.content })),
        });
      } catch (e) {
        if (!(e instanceof ScmError) || (await provider.resolveRef(repo, branch)) === null) throw e;
      }
    }
    try {
      return await provider.openMergeRequest(repo, { sourceBranch: branch, title: options.title, description: options.description, author: options.author.id });
    } catch (e) {
      const opened = e instanceof ScmError && e.code === "conflict" ? await this.openMergeRequestOf(branch) : null;
      if (opened) return opened;
      throw e;
    }
  }

  private async openMergeRequestOf(branch: string): Promise<ScmMergeRequest | null> {
    const list = await this.target.provider.listMergeRequests(this.target.repo, { state: "opened" });
    return list.find((m) => m.sourceBranch === branch) ?? null;
  }

  /** Open merge requests of the config repository whose branch is scoped to `scope` (a component name). */
  async openMergeRequests(scope?: string): Promise<ScmMergeRequest[]> {
    const list = await this.target.provider.listMergeRequests(this.target.repo, { state: "opened" });
    return scope ? list.filter((m) => m.sourceBranch.startsWith(`portal/${scope}/`)) : list;
  }
}

/**
 * A YAML file of the config repository at a revision (`<commit>^`, `HEAD`) as data, null when it cannot be
 * read: what an audit entry's "before" is made of after a commit.
 */
export async function yamlAt(catalog: Catalog, revision: string, file: string): Promise<unknown> {
  try {
    return parseDocument(await catalog.repo.git.show([`${revision}:${file}`])).toJS() as unknown;
  } catch {
    return null;
  }
}

export function authorOf(a: Author): { name: string; email: string } {
  return identityOf(a);
}

export function parseValues(text: string | null, file: string): ConfigValues {
  if (text === null || text.trim() === "") return {};
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new ScmError("invalid", `${file} is not valid YAML: ${doc.errors[0].message.split("\n")[0]}`);
  const value = doc.toJS() as unknown;
  if (value === null || value === undefined) return {};
  const parsed = configValuesSchema.safeParse(value);
  if (!parsed.success) throw new ScmError("invalid", `${file} is not a flat map of text, numbers and booleans: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

/** The file text for new values, keeping comments and key order of the current text. */
export function renderValues(currentText: string | null, component: string, environment: string, values: ConfigValues): string {
  if (currentText === null || currentText.trim() === "") {
    const header = `# Persistent config of ${component} in ${environment} (what the next release makes current).\n`;
    return header + (Object.keys(values).length ? renderUpdate("", values) : "{}\n");
  }
  return renderUpdate(currentText, values);
}
