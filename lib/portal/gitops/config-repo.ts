/**
 * Writes to the config repository (the catalog's working copy), reusing the catalog's lock and
 * write-back: a direct commit (operators) is written in the working copy while holding the catalog's
 * write lock (Catalog.exclusive), committed with the user as author, pushed when the repository has a
 * remote, and undone completely if any step fails (nothing half-written stays). A proposal (engineers)
 * is a branch plus a merge request through the provider that serves the config repository.
 *
 * Layout of persistent config: config/<component>/<environment>.yaml at the repository root, a flat
 * YAML mapping (see values.ts). Edits go through the catalog's renderUpdate, so comments and key order stay.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { parseDocument } from "yaml";
import type { Catalog, Author } from "../../catalog/catalog";
import { authorString } from "../../catalog/repo";
import { renderUpdate } from "../../catalog/writeback";
import { ScmError, type ScmMergeRequest, type ScmProvider } from "../../scm/types";
import { configValuesSchema, type ConfigValues } from "./values";

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

/** Branch of a proposal: portal/<scope>/<slug>-<random>; <scope> is the component name or "import". */
export function proposalBranch(scope: string, slug: string): string {
  return `portal/${scope}/${slug.replace(/[^a-z0-9-]/gi, "-").toLowerCase().slice(0, 40)}-${randomBytes(3).toString("hex")}`;
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

  async readText(rel: string): Promise<string | null> {
    return readFile(this.abs(rel), "utf8").catch(() => null);
  }

  /** Persistent values of one environment ({} when the file does not exist). Throws on a file that is not a valid map. */
  async readValues(component: string, environment: string): Promise<ConfigValues> {
    const text = await this.readText(configFilePath(component, environment));
    return parseValues(text, configFilePath(component, environment));
  }

  async head(): Promise<string | null> {
    return (await this.catalog.repo.git.revparse(["HEAD"]).catch(() => "")).trim() || null;
  }

  /** One commit of every file, or nothing at all. Answers the commit SHA (null when nothing changed). */
  async commit(files: FileWrite[], message: string, author: Author): Promise<string | null> {
    const git = this.catalog.repo.git;
    const result = await this.catalog.exclusive(async () => {
      const before = new Map<string, string | null>();
      for (const f of files) before.set(f.path, await this.readText(f.path));
      const changed = files.filter((f) => before.get(f.path) !== f.content);
      if (changed.length === 0) return null;
      const restore = async () => {
        for (const [rel, text] of before) {
          if (text === null) await rm(this.abs(rel), { force: true });
          else await writeFile(this.abs(rel), text, "utf8");
        }
        await git.raw(["reset", "--quiet", "--", ...changed.map((f) => f.path)]).catch(() => undefined);
      };
      let committed: string | null = null;
      try {
        for (const f of changed) {
          if (f.content === null) await rm(this.abs(f.path), { force: true });
          else {
            await mkdir(path.dirname(this.abs(f.path)), { recursive: true });
            await writeFile(this.abs(f.path), f.content, "utf8");
          }
        }
        await git.raw(["add", "--all", "--", ...changed.map((f) => f.path)]);
        const summary = await git.commit(message, changed.map((f) => f.path), { "--author": authorString(author) });
        committed = summary.commit ? ((await this.head()) ?? summary.commit) : null;
        if (!committed) throw new Error("git made no commit");
        if (this.catalog.repo.remote) await git.push();
        return committed;
      } catch (e) {
        if (committed) await git.raw(["reset", "--hard", "--quiet", "HEAD~1"]).catch(() => undefined);
        await restore();
        throw new ScmError("conflict", `the change could not be committed to the config repository: ${(e as Error).message.split("\n")[0]}`);
      }
    });
    await this.catalog.refresh({ pull: false });
    return result;
  }

  /** One branch with one commit of every file, and a merge request into the default branch. */
  async propose(options: { scope: string; files: FileWrite[]; title: string; description: string; author: Author }): Promise<ScmMergeRequest> {
    const { provider, repo } = this.target;
    const branch = proposalBranch(options.scope, options.title);
    await provider.commitFiles(repo, {
      branch,
      message: options.title,
      author: authorOf(options.author),
      files: options.files.map((f) => ({ path: f.path, content: f.content })),
    });
    return provider.openMergeRequest(repo, { sourceBranch: branch, title: options.title, description: options.description, author: options.author.id });
  }

  /** Open merge requests of the config repository whose branch is scoped to `scope` (a component name). */
  async openMergeRequests(scope?: string): Promise<ScmMergeRequest[]> {
    const list = await this.target.provider.listMergeRequests(this.target.repo, { state: "opened" });
    return scope ? list.filter((m) => m.sourceBranch.startsWith(`portal/${scope}/`)) : list;
  }
}

export function authorOf(a: Author): { name: string; email: string } {
  const s = authorString(a);
  const m = /^(.*) <(.*)>$/.exec(s);
  return m ? { name: m[1], email: m[2] } : { name: a.name, email: `${a.id}@users.portal.invalid` };
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
