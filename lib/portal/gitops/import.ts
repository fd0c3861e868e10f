/**
 * Import of repositories as catalog components: owners and repositories from the provider (marking
 * the ones already in the catalog), kind inferred from contents (infer.ts), owners from the
 * repository's members (maintainers first; the importing user when there are none), group = the
 * repository's namespace. The records go to the config repository as one commit (operators) or one
 * merge request (everyone else); the answer has one result per repository.
 *
 * A repository may be named with the kind chosen at review ({path, kind}); the record is then built
 * for that kind (environments, runtime, library follow it). A dry run infers and answers the records
 * (status "ready") without writing anything: the import wizard's review step.
 */
import type { ImportableRepository, ImportFormat, ImportResult, UnmappedField } from "../contracts/gitops";
import { stringify } from "yaml";
import type { Catalog, Author } from "../../catalog/catalog";
import { isValidName, validateComponent, type Component, type ComponentKind } from "../../catalog/schema";
import { ScmError, type ScmMergeRequest, type ScmOwner, type ScmPage, type ScmProvider, type ScmRepository } from "../../scm/types";
import { componentFilePath, type ConfigRepository, type FileWrite } from "./config-repo";
import { PortalError } from "../errors";
import { issuesOfFields } from "../../catalog/errors";
import { inferRepository } from "./infer";
import { kindDefaults, titleOf } from "../../catalog/record-defaults";
import type { PortalDatabase } from "../db/database";
import { recordAudit, type AuditContext } from "../audit";
import { mapBackstageRepository, reportText } from "./backstage-import";

export interface ImportDeps {
  scm: ScmProvider;
  catalog: Catalog;
  config: ConfigRepository;
}

export type { ImportableRepository } from "../contracts/gitops";

/** A repository to import: its path, and optionally the kind chosen at review (overrides the inferred one). */
export interface ImportRequest {
  path: string;
  kind?: ComponentKind;
}

export type { ImportResult } from "../contracts/gitops";

export async function listOwners(deps: ImportDeps): Promise<ScmOwner[]> {
  return deps.scm.listOwners();
}

function catalogByRepo(catalog: Catalog): Map<string, string> {
  return new Map(catalog.entries().map((e) => [e.component.spec.repo.path, e.name]));
}

export async function listImportable(deps: ImportDeps, options: { owner?: string; search?: string; page?: number; perPage?: number }): Promise<ScmPage<ImportableRepository>> {
  const page = await deps.scm.listRepositories(options);
  const known = catalogByRepo(deps.catalog);
  return { nextPage: page.nextPage, items: page.items.map((r) => ({ ...r, inCatalog: known.get(r.path) ?? null })) };
}

export function nameFor(repo: string, taken: Set<string>): string | null {
  const parts = repo.toLowerCase().split("/");
  const slug = (s: string) => s.replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 63).replace(/-+$/, "");
  for (const candidate of [slug(parts[parts.length - 1]), slug(parts.join("-"))]) {
    if (candidate && isValidName(candidate) && !taken.has(candidate)) return candidate;
  }
  return null;
}

export async function buildRecord(
  deps: ImportDeps,
  repo: ScmRepository,
  name: string,
  fallbackOwner: string,
  kindOverride?: ComponentKind,
): Promise<{ component: Component; reasons: string[]; inferredKind: ComponentKind }> {
  const inference = await inferRepository(deps.scm, repo.path);
  const members = (await deps.scm.listMembers(repo.path).catch(() => [])).filter((m) => m.accessLevel >= 30).sort((a, b) => b.accessLevel - a.accessLevel);
  const owners = (members.length ? members.slice(0, 3).map((m) => m.username) : [fallbackOwner]).map((user, i) => (i === 0 && repo.owner ? { user, group: repo.owner } : { user }));
  const apiVersion = deps.catalog.options().apiVersions[0] ?? "platform.example.com/v1alpha1";
  const kind = kindOverride ?? inference.kind;
  const reasons = kindOverride && kindOverride !== inference.kind ? [...inference.reasons, `kind set to ${kindOverride} at review (inferred ${inference.kind})`] : inference.reasons;
  const spec: Component["spec"] = { kind, repo: { path: repo.path }, owners, ...kindDefaults(kind, inference) };
  const component: Component = { apiVersion, kind: "Component", metadata: { name, displayName: titleOf(name) }, spec };
  const checked = validateComponent(component);
  if (!checked.ok) throw new PortalError("invalid-record", `the inferred record is not valid: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, { issues: issuesOfFields(checked.issues) });
  return { component: checked.component, reasons, inferredKind: inference.kind };
}

/**
 * Imports (one commit) or proposes (one merge request) the repositories. With `options.audit` (who
 * asked), every component written is audited right after the commit or the merge request: one entry each.
 */
export async function importRepositories(
  deps: ImportDeps & { db: PortalDatabase },
  repositories: Array<string | ImportRequest>,
  options: { user: Author; direct: boolean; dryRun?: boolean; format?: ImportFormat; audit?: AuditContext },
): Promise<ImportOutcome> {
  // A Backstage import is always reviewed: the mapping loses fields, and the merge request says which.
  const outcome = await writeImport(deps, repositories, options.format === "backstage" ? { ...options, direct: false } : options);
  if (options.audit && (outcome.commit !== null || outcome.mergeRequest !== null)) {
    for (const r of outcome.results) {
      if ((r.status !== "imported" && r.status !== "proposed") || !r.name) continue;
      await recordAudit(
        deps.db,
        options.audit,
        {
          action: "import.components",
          targetType: "component",
          target: r.name,
          component: r.name,
          summary: `${r.status === "imported" ? "imported" : "proposed the import of"} ${r.repository}${r.entity ? ` (Backstage ${r.entity})` : ""} as ${r.name}`,
          before: null,
          after: { repository: r.repository, ...(r.entity ? { entity: r.entity } : {}), kind: r.kind, status: r.status, commit: outcome.commit, mergeRequest: outcome.mergeRequest?.iid ?? null },
        },
        "after-remote-change",
      );
    }
  }
  return outcome;
}

type ImportOutcome = { results: ImportResult[]; commit: string | null; mergeRequest: ScmMergeRequest | null; unmapped?: UnmappedField[] };

async function writeImport(deps: ImportDeps, repositories: Array<string | ImportRequest>, options: { user: Author; direct: boolean; dryRun?: boolean; format?: ImportFormat }): Promise<ImportOutcome> {
  if (options.format === "backstage") return writeBackstageImport(deps, repositories, options);
  const known = catalogByRepo(deps.catalog);
  const taken = new Set(deps.catalog.entries().map((e) => e.name));
  const results: ImportResult[] = [];
  const files: FileWrite[] = [];
  const requests = new Map<string, ImportRequest>();
  for (const r of repositories) {
    const request = typeof r === "string" ? { path: r } : r;
    if (!requests.has(request.path)) requests.set(request.path, request);
  }
  for (const { path, kind: kindOverride } of requests.values()) {
    const base = { repository: path, name: null, kind: null, inferredKind: null, reasons: [] as string[] };
    if (known.has(path)) {
      results.push({ ...base, status: "exists", name: known.get(path) ?? null, message: `already in the catalog as ${known.get(path)}` });
      continue;
    }
    try {
      const repo = await deps.scm.getRepository(path);
      if (!repo) {
        results.push({ ...base, status: "failed", message: "repository not found" });
        continue;
      }
      const name = nameFor(path, taken);
      if (!name) {
        results.push({ ...base, status: "failed", message: "no free component name could be derived from the repository path" });
        continue;
      }
      const { component, reasons, inferredKind } = await buildRecord(deps, repo, name, options.user.id, kindOverride);
      taken.add(name);
      files.push({ path: componentFilePath(deps.catalog, name), content: `# ${component.metadata.displayName}: imported from ${path} by ${options.user.id}.\n${stringify(component)}` });
      const status = options.dryRun ? "ready" : options.direct ? "imported" : "proposed";
      results.push({ ...base, status, name, kind: component.spec.kind, inferredKind, reasons, message: "", component });
    } catch (e) {
      results.push({ ...base, status: "failed", message: e instanceof PortalError ? e.detail : e instanceof ScmError ? e.message : `failed: ${(e as Error).message}` });
    }
  }
  return writeFiles(deps, results, files, options, `Proposed in the portal by ${options.user.id}.`);
}

/** Writes the records as one commit or one merge request (all or nothing); marks the results accordingly. */
async function writeFiles(deps: ImportDeps, results: ImportResult[], files: FileWrite[], options: { user: Author; direct: boolean; dryRun?: boolean }, description: string): Promise<ImportOutcome> {
  if (files.length === 0 || options.dryRun) return { results, commit: null, mergeRequest: null };
  const names = results.filter((r) => r.component).map((r) => r.name);
  const title = `Import ${names.length} component${names.length === 1 ? "" : "s"}: ${names.join(", ")}`.slice(0, 200);
  try {
    if (options.direct) {
      const commit = await deps.config.commit(files, `${title}\n\nImported in the portal by ${options.user.id}.`, options.user);
      for (const r of results) if (r.status === "imported") r.message = `committed ${commit?.slice(0, 8) ?? ""}`.trim();
      return { results, commit, mergeRequest: null };
    }
    const mergeRequest = await deps.config.propose({ scope: "import", files, title, description, author: options.user });
    for (const r of results) if (r.status === "proposed") r.message = `in merge request !${mergeRequest.iid}`;
    return { results, commit: null, mergeRequest };
  } catch (e) {
    // All or nothing: the write failed, so no repository was imported.
    const message = `not written: ${(e as Error).message}`;
    for (const r of results) if (r.status === "imported" || r.status === "proposed") Object.assign(r, { status: "failed", message });
    return { results, commit: null, mergeRequest: null };
  }
}

/** One result per Component entity of each repository's Backstage catalog files, and the report of what did not map. */
async function writeBackstageImport(deps: ImportDeps, repositories: Array<string | ImportRequest>, options: { user: Author; direct: boolean; dryRun?: boolean }): Promise<ImportOutcome> {
  const taken = new Set(deps.catalog.entries().map((e) => e.name));
  const apiVersion = deps.catalog.options().apiVersions[0] ?? "platform.example.com/v1alpha1";
  const results: ImportResult[] = [];
  const files: FileWrite[] = [];
  const unmapped: UnmappedField[] = [];
  for (const path of new Set(repositories.map((r) => (typeof r === "string" ? r : r.path)))) {
    const base = { repository: path, name: null, kind: null, inferredKind: null, reasons: [] as string[] };
    try {
      if (!(await deps.scm.getRepository(path))) {
        results.push({ ...base, status: "failed", message: "repository not found" });
        continue;
      }
      const mapping = await mapBackstageRepository(deps.scm, { repoPath: path, apiVersion, fallbackUser: options.user.id, taken });
      unmapped.push(...mapping.unmapped.map((n) => ({ repository: path, ...n })));
      for (const f of mapping.failed) {
        // Imported before from this repository: said as such, so an import repeated changes nothing.
        const exists = f.name !== null && deps.catalog.entries().some((e) => e.name === f.name && e.component.spec.repo.path === path);
        results.push({ ...base, entity: f.entity, name: f.name, status: exists ? "exists" : "failed", message: exists ? `already in the catalog as ${f.name}` : f.message });
      }
      for (const { entity, component } of mapping.components) {
        const name = component.metadata.name;
        taken.add(name);
        files.push({ path: componentFilePath(deps.catalog, name), content: `# ${component.metadata.displayName}: imported from Backstage (${entity} in ${path}) by ${options.user.id}.\n${stringify(component)}` });
        results.push({ ...base, entity, name, kind: component.spec.kind, status: options.dryRun ? "ready" : "proposed", message: "", component });
      }
      if (!mapping.components.length && !mapping.failed.length) results.push({ ...base, status: "failed", message: "no Component entity in the Backstage catalog files: nothing to import (the report says what was read)" });
    } catch (e) {
      results.push({ ...base, status: "failed", message: e instanceof ScmError ? e.message : `failed: ${(e as Error).message}` });
    }
  }
  const outcome = await writeFiles(deps, results, files, options, `Imported from Backstage in the portal by ${options.user.id}.\n\n${reportText(unmapped)}`);
  return { ...outcome, unmapped };
}
