/**
 * Where the local provider keeps its merge-request records: an interface of source control's own, so
 * lib/scm depends on no database schema. The portal implements it on its database
 * (lib/portal/gitops/merge-request-store.ts); memoryMergeRequestStore serves the fake GitLab server
 * and tests. iids are allocated per repository; callers hold the repository lock.
 */
import type { MergeRequestState, ScmMergeRequest } from "./types";

export interface NewMergeRequest {
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  author: string;
}

/**
 * Whether the source merged cleanly into the target, for one pair of commits: a verdict that never goes
 * stale for that pair, so every process reading the record may use it while both branches still point there.
 */
export interface Mergeability {
  sourceSha: string;
  targetSha: string;
  hasConflicts: boolean;
}

export type MergeRequestRecord = Omit<ScmMergeRequest, "webUrl" | "hasConflicts"> & {
  /** The last mergeability check, or null before the first. */
  mergeability: Mergeability | null;
};

export interface MergeRequestStore {
  create(repository: string, data: NewMergeRequest): Promise<MergeRequestRecord>;
  list(repository: string, state?: MergeRequestState): Promise<MergeRequestRecord[]>;
  get(repository: string, iid: number): Promise<MergeRequestRecord | null>;
  update(repository: string, iid: number, patch: { state: MergeRequestState; mergeCommitSha?: string | null }): Promise<MergeRequestRecord>;
  /** Keeps the verdict of a check with the record (its updatedAt unchanged: nobody changed the request). */
  setMergeability(repository: string, iid: number, mergeability: Mergeability): Promise<void>;
}

export function memoryMergeRequestStore(): MergeRequestStore {
  const byRepo = new Map<string, MergeRequestRecord[]>();
  const all = (repo: string) => byRepo.get(repo) ?? [];
  return {
    async create(repository, data) {
      const list = all(repository);
      const now = new Date().toISOString();
      const mr: MergeRequestRecord = { iid: list.length + 1, repository, ...data, state: "opened", createdAt: now, updatedAt: now, mergedAt: null, mergeCommitSha: null, mergeability: null };
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
    async setMergeability(repository, iid, mergeability) {
      const m = all(repository).find((x) => x.iid === iid);
      if (m) m.mergeability = { ...mergeability };
    },
  };
}
