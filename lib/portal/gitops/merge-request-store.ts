/**
 * The local provider's merge-request records in the portal database (scm_merge_requests), behind
 * lib/scm's MergeRequestStore interface. iids are allocated per repository; callers hold the
 * repository lock, and the primary key (repository, iid) refuses a duplicate across processes (the
 * caller retries).
 */
import "server-only";
import { and, desc, eq, max } from "drizzle-orm";
import type { MergeRequestRecord, MergeRequestStore } from "../../scm/merge-request-store";
import type { MergeRequestState } from "../../scm/types";
import type { PortalDatabase } from "../db/database";
import { scmMergeRequests, type ScmMergeRequestRow } from "../db/schema/scm";

function fromRow(r: ScmMergeRequestRow): MergeRequestRecord {
  return {
    iid: r.iid,
    repository: r.repository,
    title: r.title,
    description: r.description,
    sourceBranch: r.sourceBranch,
    targetBranch: r.targetBranch,
    state: r.state as MergeRequestState,
    author: r.author,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    mergedAt: r.mergedAt ? r.mergedAt.toISOString() : null,
    mergeCommitSha: r.mergeCommitSha,
    mergeability:
      r.checkedSourceSha && r.checkedTargetSha && r.hasConflicts !== null ? { sourceSha: r.checkedSourceSha, targetSha: r.checkedTargetSha, hasConflicts: r.hasConflicts } : null,
  };
}

export function dbMergeRequestStore(db: PortalDatabase): MergeRequestStore {
  return {
    async create(repository, data) {
      for (let attempt = 0; ; attempt++) {
        const [{ top }] = await db.select({ top: max(scmMergeRequests.iid) }).from(scmMergeRequests).where(eq(scmMergeRequests.repository, repository));
        const iid = (top ?? 0) + 1;
        const rows = await db
          .insert(scmMergeRequests)
          .values({ repository, iid, ...data })
          .onConflictDoNothing()
          .returning();
        if (rows.length > 0) return fromRow(rows[0]);
        if (attempt > 20) throw new Error("could not allocate a merge request number");
      }
    },
    async list(repository, state) {
      const where = state ? and(eq(scmMergeRequests.repository, repository), eq(scmMergeRequests.state, state)) : eq(scmMergeRequests.repository, repository);
      const rows = await db.select().from(scmMergeRequests).where(where).orderBy(desc(scmMergeRequests.iid));
      return rows.map(fromRow);
    },
    async get(repository, iid) {
      const rows = await db
        .select()
        .from(scmMergeRequests)
        .where(and(eq(scmMergeRequests.repository, repository), eq(scmMergeRequests.iid, iid)));
      return rows[0] ? fromRow(rows[0]) : null;
    },
    async update(repository, iid, patch) {
      const now = new Date();
      const rows = await db
        .update(scmMergeRequests)
        .set({
          state: patch.state,
          updatedAt: now,
          ...(patch.state === "merged" ? { mergedAt: now, mergeCommitSha: patch.mergeCommitSha ?? null } : {}),
        })
        .where(and(eq(scmMergeRequests.repository, repository), eq(scmMergeRequests.iid, iid)))
        .returning();
      if (!rows[0]) throw new Error(`no merge request !${iid}`);
      return fromRow(rows[0]);
    },
    async setMergeability(repository, iid, m) {
      await db
        .update(scmMergeRequests)
        .set({ checkedSourceSha: m.sourceSha, checkedTargetSha: m.targetSha, hasConflicts: m.hasConflicts })
        .where(and(eq(scmMergeRequests.repository, repository), eq(scmMergeRequests.iid, iid)));
    },
  };
}
