/** Test helpers: a valid record, its YAML, and a config repository in a temp folder. */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { openCatalog, type Catalog } from "./catalog";
import { ensureConfigRepo } from "./repo";
import { RepoGit } from "../scm/git";
import type { Component } from "./schema";

export function validComponent(name = "checkout-api", overrides: Partial<Component["spec"]> = {}): Component {
  return {
    apiVersion: "platform.example.com/v1alpha1",
    kind: "Component",
    metadata: { name, displayName: `Display ${name}` },
    spec: {
      kind: "service",
      repo: { path: `commerce/${name}` },
      owners: [{ user: "alice", group: "commerce/backend" }, { user: "bob" }],
      environments: ["dev", "staging", "sandbox", "production"],
      runtime: {
        k8s: { namespaces: { dev: `${name}-dev`, production: `${name}-prod` }, deploymentContractPath: "deploy/contract.yaml" },
        mobile: { platforms: ["ios", "android", "web"] },
      },
      dependencies: { mongo: true, redis: false, pubsub: true, gcpSecrets: false },
      library: {
        model: "monorepo",
        defaultRegistry: "npm.example.com",
        publish: { strategy: "changesets", visibilityPolicy: { default: "internal", allowPublic: true } },
      },
      ...overrides,
    },
  };
}

export function yamlOf(component: unknown, comment = ""): string {
  return `${comment ? `# ${comment}\n` : ""}${stringify(component)}`;
}

export interface TempRepo {
  root: string;
  catalog: Catalog;
  componentsDir: string;
  /**
   * Commits files (path from the repository root → text, null deletes) on the branch the way another
   * writer would (plumbing + compare-and-swap, not through this catalog). Answers the commit.
   */
  commit(files: Record<string, string | null>, message?: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** A config repository (real git) seeded with the given files, opened as a catalog. */
export async function tempCatalog(files: Record<string, string>, options: { maxFileBytes?: number } = {}): Promise<TempRepo> {
  const root = await mkdtemp(path.join(tmpdir(), "catalog-test-"));
  const shipped = path.join(root, "shipped");
  await mkdir(shipped, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(shipped, name), text);
  const repo = await ensureConfigRepo({ dataDir: path.join(root, "data"), shippedDir: shipped });
  const catalog = await openCatalog({ repo, maxFileBytes: options.maxFileBytes });
  return {
    root,
    catalog,
    componentsDir: catalog.configDir,
    commit: (files, message = "An edit by someone else") => commitAsOther(repo.dir, files, message),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** A commit on main made outside the catalog (another writer), by plumbing and compare-and-swap. */
export async function commitAsOther(dir: string, files: Record<string, string | null>, message = "An edit by someone else"): Promise<string> {
  const git = new RepoGit(dir);
  const parent = await git.branchSha("main");
  return git.commitFiles({
    branch: "main",
    parent,
    branchExists: parent !== null,
    files: Object.entries(files).map(([p, content]) => ({ path: p, content })),
    message,
    author: { name: "Someone Else", email: "else@example.com" },
  });
}
