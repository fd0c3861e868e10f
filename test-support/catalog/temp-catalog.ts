/** Test helpers: a valid record, its YAML, and a config repository in a temp folder. */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";
import { Catalog, openCatalog, type CatalogOptions } from "../../lib/catalog/catalog";
import { ensureConfigRepo } from "../../lib/catalog/repo";
import { snapshotFileFor } from "../../lib/catalog/snapshot";
import { RepoGit } from "../../lib/scm/git";
import type { Component } from "../../lib/catalog/schema";

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
  /**
   * Opens the repository again as a new process would (a new Catalog, recovery, load), with the same
   * options; `before` runs on the new catalog before it loads (to spy on its reads). It becomes `catalog`.
   */
  restart(before?: (catalog: Catalog) => void): Promise<Catalog>;
  cleanup(): Promise<void>;
}

/** A config repository (real git) seeded with the given files, opened as a catalog. */
export async function tempCatalog(
  files: Record<string, string>,
  options: { maxFileBytes?: number; /** Keep a snapshot under the data directory (written when flushed, or after snapshotDelayMs). */ snapshot?: boolean; snapshotDelayMs?: number } = {},
): Promise<TempRepo> {
  const root = await mkdtemp(path.join(tmpdir(), "catalog-test-"));
  const shipped = path.join(root, "shipped");
  await mkdir(shipped, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(shipped, name), text);
  const dataDir = path.join(root, "data");
  const repo = await ensureConfigRepo({ dataDir, shippedDir: shipped });
  const catalogOptions = (r: typeof repo): CatalogOptions => ({
    repo: r,
    maxFileBytes: options.maxFileBytes,
    ...(options.snapshot ? { snapshotFile: snapshotFileFor(r.dir), snapshotDelayMs: options.snapshotDelayMs ?? 60_000 } : {}),
  });
  const temp: TempRepo = {
    root,
    catalog: await openCatalog(catalogOptions(repo)),
    componentsDir: path.join(repo.dir, repo.componentsSubdir),
    commit: (files, message = "An edit by someone else") => commitAsOther(repo.dir, files, message),
    async restart(before) {
      const catalog = new Catalog(catalogOptions(await ensureConfigRepo({ dataDir, shippedDir: shipped })));
      before?.(catalog);
      // As openCatalog does: the snapshot read while the repository is recovered.
      catalog.prefetchSnapshot();
      await catalog.recover();
      await catalog.refresh({ pull: false });
      temp.catalog = catalog;
      return catalog;
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
  return temp;
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
