/**
 * Where the local provider keeps its merge-request records: the portal database (scm_merge_requests),
 * or memory (the fake GitLab server). iids are allocated per repository; callers hold the repository lock,
 * and the primary key (repository, iid) refuses a duplicate across processes (the caller retries).
 */
import { and, desc, eq, max } from "drizzle-orm";
import type { AppDatabase } from "../db";
import { scmMergeRequests, type ScmMergeRequestRow } from "../portal/db/schema/scm";
import type { MergeRequestState, ScmMergeRequest } from "./types";

export interface NewMergeRequest {
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  author: string;
}

export type MergeRequestRecord = Omit<ScmMergeRequest, "webUrl">;

export interface MergeRequestStore {
  create(repository: string, data: NewMergeRequest): Promise<MergeRequestRecord>;
  list(repository: string, state?: MergeRequestState): Promise<MergeRequestRecord[]>;
  get(repository: string, iid: number): Promise<MergeRequestRecord | null>;
  update(repository: string, iid: number, patch: { state: MergeRequestState; mergeCommitSha?: string | null }): Promise<MergeRequestRecord>;
}

export function memoryMergeRequestStore(): MergeRequestStore {
  const byRepo = new Map<string, MergeRequestRecord[]>();
  const all = (repo: string) => byRepo.get(repo) ?? [];
  return {
    async create(repository, data) {
      const list = all(repository);
      const now = new Date().toISOString();
      const mr: MergeRequestRecord = { iid: list.length + 1, repository, ...data, state: "opened", createdAt: now, updatedAt: now, mergedAt: null, mergeCommitSha: null };
      byRepo.set(repository, [...list, mr]);
      return { ...mr };
    },
    async list(repository, state) {
      return all(repository)
        .filter((m) => !state || m.state === state)
        .map((m) => ({ ...m }))
        .reverse();
    },
    async get(repository, iid) {
      const m = all(repository).find((x) => x.iid === iid);
      return m ? { ...m } : null;
    },
    async update(repository, iid, patch) {
      const m = all(repository).find((x) => x.iid === iid);
      if (!m) throw new Error(`no merge request !${iid}`);
      const now = new Date().toISOString();
      m.state = patch.state;
      m.updatedAt = now;
      if (patch.state === "merged") {
        m.mergedAt = now;
        m.mergeCommitSha = patch.mergeCommitSha ?? null;
      }
      return { ...m };
    },
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = AppDatabase<any>;

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
  };
}

export function dbMergeRequestStore(db: Db): MergeRequestStore {
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
  };
}
