// Source control and GitOps: merge requests of the `local` provider, releases, and the
// current (live) config per component and environment.
import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/** Merge requests of the local provider: a branch in the repository plus this record. */
export const scmMergeRequests = pgTable(
  "scm_merge_requests",
  {
    /** <group>/<project> */
    repository: text("repository").notNull(),
    /** Number within the repository (!iid). */
    iid: integer("iid").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    sourceBranch: text("source_branch").notNull(),
    targetBranch: text("target_branch").notNull(),
    /** opened | merged | closed */
    state: text("state").notNull().default("opened"),
    author: text("author").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    mergedAt: timestamp("merged_at", { withTimezone: true }),
    mergeCommitSha: text("merge_commit_sha"),
    /**
     * The last mergeability check (git merge-tree) and the commits it was made for: lists answer it while
     * both branches still point there, so no portal instance runs it twice for one pair.
     */
    checkedSourceSha: text("checked_source_sha"),
    checkedTargetSha: text("checked_target_sha"),
    hasConflicts: boolean("has_conflicts"),
  },
  (t) => [primaryKey({ columns: [t.repository, t.iid] }), index("scm_merge_requests_state_idx").on(t.repository, t.state)],
);

/**
 * Decisions taken on merge requests in the portal, whatever the provider: approvals (one per person),
 * the merge and the close with its reason (GitLab keeps no reason and approvals need a paid tier).
 */
export const mergeRequestDecisions = pgTable(
  "merge_request_decisions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    repository: text("repository").notNull(),
    iid: integer("iid").notNull(),
    /** approve | merge | close */
    action: text("action").notNull(),
    actor: text("actor").notNull(),
    actorName: text("actor_name").notNull(),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("merge_request_decisions_once").on(t.repository, t.iid, t.action, t.actor), index("merge_request_decisions_mr_idx").on(t.repository, t.iid)],
);
export type MergeRequestDecisionRow = typeof mergeRequestDecisions.$inferSelect;

/** One row per release: a staging cut (new version) or a production promotion. */
export const componentReleases = pgTable(
  "component_releases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    component: text("component").notNull(),
    /** staging | production */
    environment: text("environment").notNull(),
    /** Semantic version without "v", e.g. 1.4.0 */
    version: text("version").notNull(),
    /** The tag in the component's repository, e.g. v1.4.0 */
    tag: text("tag").notNull(),
    commitSha: text("commit_sha").notNull(),
    sourceRef: text("source_ref").notNull(),
    /** major | minor for staging cuts; promote for production */
    releaseType: text("release_type").notNull(),
    releasedBy: text("released_by").notNull(),
    releasedAt: timestamp("released_at", { withTimezone: true }).notNull().defaultNow(),
    /** The persistent config that became current, and the config repository commit it came from. */
    config: jsonb("config").$type<Record<string, string | number | boolean>>().notNull().default({}),
    configCommit: text("config_commit"),
  },
  (t) => [
    // A version is cut once per component, whatever the number of processes.
    uniqueIndex("component_releases_staging_version_uq").on(t.component, t.version).where(sql`${t.environment} = 'staging'`),
    index("component_releases_component_idx").on(t.component, t.environment, t.releasedAt),
  ],
);

/** The values live in an environment (view `current`): set by a release or by an edit with view current. */
export const componentConfigCurrent = pgTable(
  "component_config_current",
  {
    component: text("component").notNull(),
    environment: text("environment").notNull(),
    values: jsonb("values").$type<Record<string, string | number | boolean>>().notNull().default({}),
    /** release | edit */
    source: text("source").notNull(),
    updatedBy: text("updated_by").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    releaseId: uuid("release_id"),
  },
  (t) => [primaryKey({ columns: [t.component, t.environment] })],
);

export type ScmMergeRequestRow = typeof scmMergeRequests.$inferSelect;
export type ComponentReleaseRow = typeof componentReleases.$inferSelect;
export type ComponentConfigCurrentRow = typeof componentConfigCurrent.$inferSelect;
