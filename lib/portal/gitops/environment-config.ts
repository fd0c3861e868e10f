/**
 * Config per environment, two views:
 * - persistent: config/<name>/<environment>.yaml in the config repository (what the next release makes current);
 * - current: the values live in the environment (portal DB; set by a release, or by an edit with view current).
 * An environment whose current values differ from its persistent ones shows the differing keys as drift.
 *
 * Writes: persistent → operators and the component's owners commit directly (the route decides, lib/portal/ownership.ts);
 * everyone else gets a merge request in the config repository.
 * current → operators only (a live change). Bulk updates are all or nothing: every update is validated
 * first, then one commit (or one merge request, or one database transaction) carries all of them.
 */
import "server-only";
import type { ConfigAnswer, ConfigView, ConfigWriteResult } from "../contracts/gitops";
import { and, eq, inArray } from "drizzle-orm";
import type { Catalog, Author } from "../../catalog/catalog";
import { componentConfigCurrent } from "../db/schema/scm";
import { ScmError } from "../../scm/types";
import { componentNotFound, PortalError, type PortalIssue } from "../errors";
import { configFilePath, renderValues, yamlAt, type ConfigRepository, type FileWrite } from "./config-repo";
import { applyPatch, configPatchSchema, diffKeys, type ConfigPatch, type ConfigValues } from "./config-values";
import type { Db } from "./releases";
import { recordAudit, type AuditContext, type AuditEntryInput } from "../audit";

export type { ConfigView } from "../contracts/gitops";

export type EnvironmentConfig = ConfigAnswer["environments"][number];

export type { ConfigAnswer } from "../contracts/gitops";

export interface ConfigDeps {
  db: Db;
  catalog: Catalog;
  config: ConfigRepository;
}

export interface ConfigUpdate {
  environment: string;
  values: ConfigPatch;
}

export type { ConfigWriteResult } from "../contracts/gitops";

function environmentsOf(catalog: Catalog, name: string): string[] {
  const entry = catalog.get(name);
  if (!entry) throw componentNotFound(name);
  return entry.component.spec.environments;
}

async function readPersistent(deps: ConfigDeps, name: string, environment: string): Promise<ConfigValues> {
  try {
    return await deps.config.readValues(name, environment);
  } catch (e) {
    throw new PortalError("invalid-config", (e as Error).message, { cause: e });
  }
}

async function readCurrentRows(deps: ConfigDeps, name: string) {
  return deps.db.select().from(componentConfigCurrent).where(eq(componentConfigCurrent.component, name));
}

export async function getConfig(deps: ConfigDeps, name: string, view: ConfigView): Promise<ConfigAnswer> {
  const envs = environmentsOf(deps.catalog, name);
  const rows = new Map((await readCurrentRows(deps, name)).map((r) => [r.environment, r]));
  const environments: EnvironmentConfig[] = [];
  for (const environment of envs) {
    const persistent = await readPersistent(deps, name, environment);
    const row = rows.get(environment);
    const current = row?.values ?? {};
    environments.push({
      environment,
      values: view === "current" ? current : persistent,
      drift: diffKeys(current, persistent),
      source: (row?.source as EnvironmentConfig["source"]) ?? null,
      updatedBy: row?.updatedBy ?? null,
      updatedAt: row?.updatedAt.toISOString() ?? null,
    });
  }
  return { name, view, file: configFilePath(name, "{environment}"), environments };
}

/** Validates every update against the component; answers them with their parsed patches, or throws invalid-config naming each problem. */
export function validateUpdates(envs: string[], updates: Array<{ environment: unknown; values: unknown }>): ConfigUpdate[] {
  const issues: PortalIssue[] = [];
  const out: ConfigUpdate[] = [];
  const seen = new Set<string>();
  updates.forEach((u, i) => {
    const environment = typeof u.environment === "string" ? u.environment : "";
    if (!envs.includes(environment)) issues.push({ path: ["updates", String(i), "environment"], message: `must be one of the component's environments: ${envs.join(", ") || "(none)"}` });
    else if (seen.has(environment)) issues.push({ path: ["updates", String(i), "environment"], message: `${environment} is named twice` });
    seen.add(environment);
    const parsed = configPatchSchema.safeParse(u.values);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) issues.push({ path: ["updates", String(i), "values", ...issue.path.map(String)], message: issue.message });
    } else out.push({ environment, values: parsed.data });
  });
  if (issues.length > 0) throw new PortalError("invalid-config", "the config update is not valid; nothing was written", { issues });
  return out;
}

/** How long after a commit the same person's same change answers that commit (a double-click, a retry). */
export const REPEATED_COMMIT_WINDOW_MS = 60_000;

export async function writeConfig(
  deps: ConfigDeps,
  name: string,
  rawUpdates: Array<{ environment: unknown; values: unknown }>,
  options: { view: ConfigView; user: Author; direct: boolean; audit?: AuditContext },
): Promise<ConfigWriteResult> {
  const envs = environmentsOf(deps.catalog, name);
  if (rawUpdates.length === 0) throw new PortalError("invalid-config", "name at least one update", { issues: [{ path: ["updates"], message: "name at least one update" }] });
  const updates = validateUpdates(envs, rawUpdates);

  if (options.view === "current") {
    const rows = new Map((await readCurrentRows(deps, name)).map((r) => [r.environment, r.values]));
    const next: Record<string, ConfigValues> = {};
    for (const u of updates) next[u.environment] = applyPatch(rows.get(u.environment) ?? {}, u.values);
    const changed = updates.some((u) => diffKeys(rows.get(u.environment) ?? {}, next[u.environment]).length > 0);
    const result: ConfigWriteResult = { mode: "current", view: "current", changed, environments: next };
    await deps.db.transaction(async (tx) => {
      for (const u of updates) {
        await tx
          .insert(componentConfigCurrent)
          .values({ component: name, environment: u.environment, values: next[u.environment], source: "edit", updatedBy: options.user.id })
          .onConflictDoUpdate({
            target: [componentConfigCurrent.component, componentConfigCurrent.environment],
            set: { values: next[u.environment], source: "edit", updatedBy: options.user.id, updatedAt: new Date(), releaseId: null },
          });
      }
      // Re-read inside the transaction: all rows or none.
      await tx
        .select()
        .from(componentConfigCurrent)
        .where(and(eq(componentConfigCurrent.component, name), inArray(componentConfigCurrent.environment, updates.map((u) => u.environment))));
      if (changed && options.audit) await recordAudit(tx, options.audit, configEntry(name, result, null), "in-transaction");
    });
    return result;
  }

  const files: FileWrite[] = [];
  const next: Record<string, ConfigValues> = {};
  for (const u of updates) {
    const file = configFilePath(name, u.environment);
    const text = await deps.config.readText(file);
    const base = await readPersistent(deps, name, u.environment);
    next[u.environment] = applyPatch(base, u.values);
    files.push({ path: file, content: renderValues(text, name, u.environment, next[u.environment]) });
  }
  const envList = updates.map((u) => u.environment).join(", ");
  const title = `Config of ${name}: ${envList}`;
  let result: ConfigWriteResult;
  try {
    if (options.direct) {
      const message = `${title}\n\nChanged in the portal by ${options.user.id}.`;
      const commit = await deps.config.commit(files, message, options.user);
      if (commit === null) {
        // Nothing to write because this person has just committed these very values: the same change sent
        // twice answers the first one's commit (audited once, by the first), rather than "nothing changed".
        const earlier = await deps.config.recentCommitOf(files.map((f) => f.path), message, options.user, REPEATED_COMMIT_WINDOW_MS);
        return { mode: "commit", view: "persistent", commit: earlier, changed: earlier !== null, environments: next };
      }
      result = { mode: "commit", view: "persistent", commit, changed: true, environments: next };
    } else {
      const mergeRequest = await deps.config.propose({
        scope: name,
        files,
        title,
        description: `Proposed in the portal by ${options.user.id}.\n\nComponent: ${name}\nEnvironments: ${envList}`,
        author: options.user,
      });
      result = { mode: "merge_request", view: "persistent", mergeRequest, environments: next };
    }
  } catch (e) {
    if (e instanceof ScmError) throw new PortalError(e.code === "conflict" ? "conflict" : "source-control-failed", e.message, { cause: e });
    throw e;
  }
  if (options.audit && (result.mode === "merge_request" || result.changed)) {
    await recordAudit(deps.db, options.audit, configEntry(name, result, await persistentBefore(deps, name, result)), "after-remote-change");
  }
  return result;
}

/**
 * Each environment's persistent values before the write, for the audit log: before the commit, or for a
 * merge request (which changes nothing yet) the default branch now; null when the commit is unknown.
 */
async function persistentBefore(deps: ConfigDeps, name: string, result: ConfigWriteResult): Promise<Record<string, unknown> | null> {
  if (result.mode === "current") return null;
  if (result.mode === "commit" && !result.commit) return null;
  const revision = result.mode === "commit" ? `${result.commit}^` : "HEAD";
  const out: Record<string, unknown> = {};
  for (const env of Object.keys(result.environments)) out[env] = (await yamlAt(deps.catalog, revision, configFilePath(name, env))) ?? {};
  return out;
}

function configEntry(name: string, result: ConfigWriteResult, before: Record<string, unknown> | null): AuditEntryInput {
  const envs = Object.keys(result.environments).join(", ");
  const how = result.mode === "commit" ? `committed ${result.commit?.slice(0, 8) ?? ""}` : result.mode === "merge_request" ? `proposed in merge request !${result.mergeRequest.iid}` : "set live (current)";
  return {
    action: "config.write",
    targetType: "component",
    target: name,
    component: name,
    summary: `config of ${name} (${result.view}: ${envs}) ${how}`.trim(),
    before,
    after: {
      view: result.view,
      mode: result.mode,
      environments: result.environments,
      ...(result.mode === "commit" ? { commit: result.commit } : {}),
      ...(result.mode === "merge_request" ? { mergeRequest: result.mergeRequest.iid } : {}),
    },
  };
}
