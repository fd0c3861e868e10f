/**
 * Releases. Staging: a new semantic version (minor by default, major when asked) tagged at sourceRef
 * (the default branch by default) in the component's repository. Production: promotes a staging
 * version (the latest by default; sourceRef may name one, "1.4.0" or "v1.4.0"). A release makes the
 * environment's persistent config current, and records who, when, commit, version and that config.
 *
 * Never the same version twice: releases of one component are serialised in this process, and across
 * processes the partial unique index (component, version) of staging rows refuses a duplicate — the
 * loser recomputes from what is now recorded and tagged, and tries again.
 */
import "server-only";
import type { Release, ReleaseEnvironment } from "../contracts/gitops";
import { and, desc, eq } from "drizzle-orm";
import { isUniqueViolation } from "../../db";
import type { PortalDatabase } from "../db/database";
import type { Catalog, Author } from "../../catalog/catalog";
import { componentReleases, componentConfigCurrent, type ComponentReleaseRow } from "../db/schema/scm";
import { KeyedMutex } from "../../mutex";
import { ScmError, type ScmProvider } from "../../scm/types";
import { componentNotFound, PortalError } from "../errors";
import { nextVersion, parseVersion, formatVersion, sortVersionsDesc, tagOf, type ReleaseType } from "./semver";
import type { ConfigRepository } from "./config-repo";
import type { ConfigValues } from "./config-values";
import { recordAudit, type AuditContext, type AuditEntryInput } from "../audit";

export type Db = PortalDatabase;

export type { ReleaseEnvironment } from "../contracts/gitops";

/** A release as the API answers it: the contract's (lib/portal/contracts/gitops.ts). */
export type { Release } from "../contracts/gitops";

export function releaseOf(r: ComponentReleaseRow): Release {
  return {
    id: r.id,
    component: r.component,
    environment: r.environment as ReleaseEnvironment,
    version: r.version,
    tag: r.tag,
    commitSha: r.commitSha,
    sourceRef: r.sourceRef,
    releaseType: r.releaseType as Release["releaseType"],
    releasedBy: r.releasedBy,
    releasedAt: r.releasedAt.toISOString(),
    config: r.config,
    configCommit: r.configCommit,
  };
}

export interface ReleaseDeps {
  db: Db;
  scm: ScmProvider;
  catalog: Catalog;
  config: ConfigRepository;
}

const locks = new KeyedMutex();

export async function listReleases(db: Db, component: string, environment?: ReleaseEnvironment): Promise<Release[]> {
  const where = environment ? and(eq(componentReleases.component, component), eq(componentReleases.environment, environment)) : eq(componentReleases.component, component);
  const rows = await db.select().from(componentReleases).where(where).orderBy(desc(componentReleases.releasedAt));
  return rows.map(releaseOf);
}

/** The version live in each environment (the latest release there). */
export async function deployedVersions(db: Db, component: string): Promise<Partial<Record<string, string>>> {
  const out: Partial<Record<string, string>> = {};
  for (const r of await listReleases(db, component)) if (!out[r.environment]) out[r.environment] = r.version;
  return out;
}

function componentOf(catalog: Catalog, name: string) {
  const entry = catalog.get(name);
  if (!entry) throw componentNotFound(name);
  return entry.component;
}

async function setCurrent(db: Db, component: string, environment: string, values: ConfigValues, by: string, releaseId: string): Promise<void> {
  await db
    .insert(componentConfigCurrent)
    .values({ component, environment, values, source: "release", updatedBy: by, releaseId })
    .onConflictDoUpdate({
      target: [componentConfigCurrent.component, componentConfigCurrent.environment],
      set: { values, source: "release", updatedBy: by, updatedAt: new Date(), releaseId },
    });
}

/**
 * Releases `name` to an environment. With `audit` (who asked), the release is audited: a promotion (the
 * portal database only) in its own transaction, a staging release (a tag in source control) right after it.
 */
export async function createRelease(
  deps: ReleaseDeps,
  name: string,
  request: { environment: ReleaseEnvironment; sourceRef?: string; releaseType?: ReleaseType },
  user: Author,
  audit?: AuditContext,
): Promise<Release> {
  const component = componentOf(deps.catalog, name);
  if (!component.spec.environments.includes(request.environment)) {
    throw new PortalError("not-releasable", `${name} has no ${request.environment} environment (spec.environments: ${component.spec.environments.join(", ") || "none"})`);
  }
  return locks.run(name, () => (request.environment === "staging" ? releaseToStaging(deps, name, component.spec.repo.path, request, user, audit) : promote(deps, name, request, user, audit)));
}

function releaseEntry(release: Release, previousVersion: string | null): AuditEntryInput {
  return {
    action: "release.create",
    targetType: "component",
    target: release.component,
    component: release.component,
    summary: `released ${release.component} ${release.version} to ${release.environment}`,
    before: { version: previousVersion },
    after: { environment: release.environment, version: release.version, tag: release.tag, commit: release.commitSha },
  };
}

async function persistentConfig(deps: ReleaseDeps, name: string, environment: string): Promise<{ values: ConfigValues; commit: string | null }> {
  try {
    return { values: await deps.config.readValues(name, environment), commit: await deps.config.head() };
  } catch (e) {
    throw new PortalError("invalid-config", `the persistent config of ${environment} cannot be read: ${(e as Error).message}`, { cause: e });
  }
}

async function releaseToStaging(deps: ReleaseDeps, name: string, repo: string, request: { sourceRef?: string; releaseType?: ReleaseType }, user: Author, audit?: AuditContext): Promise<Release> {
  const type = request.releaseType ?? "minor";
  let sourceRef = request.sourceRef;
  try {
    if (!sourceRef) {
      const r = await deps.scm.getRepository(repo);
      if (!r) throw new PortalError("not-releasable", `the repository ${repo} of ${name} does not exist in source control`);
      sourceRef = r.defaultBranch;
    }
    const sha = await deps.scm.resolveRef(repo, sourceRef);
    if (!sha) throw new PortalError("not-releasable", `"${sourceRef}" names no branch, tag or commit in ${repo}`);
    const config = await persistentConfig(deps, name, "staging");
    for (let attempt = 0; attempt < 10; attempt++) {
      const earlier = await listReleases(deps.db, name, "staging");
      const recorded = earlier.map((r) => r.version);
      const tags = (await deps.scm.listTags(repo)).map((t) => t.name);
      const version = nextVersion([...recorded, ...tags], type);
      let row: ComponentReleaseRow;
      try {
        [row] = await deps.db
          .insert(componentReleases)
          .values({ component: name, environment: "staging", version, tag: tagOf(version), commitSha: sha, sourceRef, releaseType: type, releasedBy: user.id, config: config.values, configCommit: config.commit })
          .returning();
      } catch (e) {
        if (isUniqueViolation(e)) continue; // another process took this version: recompute
        throw e;
      }
      try {
        await deps.scm.createTag(repo, { name: tagOf(version), ref: sha, message: `Release ${version} of ${name} (by ${user.id})` });
      } catch (e) {
        await deps.db.delete(componentReleases).where(eq(componentReleases.id, row.id));
        if (e instanceof ScmError && e.code === "conflict") continue; // the tag exists already (made outside the portal): next version
        throw e;
      }
      await deps.scm.createRelease(repo, { tagName: tagOf(version), name: version, description: `Released to staging by ${user.id}` }).catch(() => undefined);
      await setCurrent(deps.db, name, "staging", config.values, user.id, row.id);
      const release = releaseOf(row);
      if (audit) await recordAudit(deps.db, audit, releaseEntry(release, earlier[0]?.version ?? null), "after-remote-change");
      return release;
    }
    throw new PortalError("conflict", "could not settle on a new version; try again");
  } catch (e) {
    if (e instanceof ScmError) throw new PortalError(e.code === "not_found" ? "not-releasable" : "source-control-failed", e.message, { cause: e });
    throw e;
  }
}

async function promote(deps: ReleaseDeps, name: string, request: { sourceRef?: string }, user: Author, audit?: AuditContext): Promise<Release> {
  const staging = await listReleases(deps.db, name, "staging");
  if (staging.length === 0) throw new PortalError("not-releasable", `${name} has no staging release to promote; release to staging first`);
  let chosen: Release | undefined;
  if (request.sourceRef) {
    const v = parseVersion(request.sourceRef);
    if (!v) throw new PortalError("not-releasable", `to promote, sourceRef names a staging version such as 1.4.0 (got "${request.sourceRef}")`);
    chosen = staging.find((r) => r.version === formatVersion(v));
    if (!chosen) throw new PortalError("not-releasable", `version ${formatVersion(v)} was never released to staging`);
  } else {
    const top = sortVersionsDesc(staging.map((r) => r.version))[0];
    chosen = staging.find((r) => r.version === top);
  }
  if (!chosen) throw new PortalError("not-releasable", "no staging version to promote");
  const [current] = await listReleases(deps.db, name, "production");
  if (current?.version === chosen.version) throw new PortalError("already-released", `${chosen.version} is already in production`);
  const config = await persistentConfig(deps, name, "production");
  const promoted = chosen;
  return deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(componentReleases)
      .values({
        component: name,
        environment: "production",
        version: promoted.version,
        tag: promoted.tag,
        commitSha: promoted.commitSha,
        sourceRef: promoted.tag,
        releaseType: "promote",
        releasedBy: user.id,
        config: config.values,
        configCommit: config.commit,
      })
      .returning();
    await setCurrent(tx, name, "production", config.values, user.id, row.id);
    const release = releaseOf(row);
    if (audit) await recordAudit(tx, audit, releaseEntry(release, current?.version ?? null), "in-transaction");
    return release;
  });
}
