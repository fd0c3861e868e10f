/**
 * The source-control provider interface of the portal: one contract, two adapters
 * (`local`: bare git repositories on disk; `gitlab`: GitLab REST v4). Plain TypeScript, no Next.js.
 *
 * Repository paths are `<group>/<project>` (subgroups allowed: `<group>/<sub>/<project>`).
 * Errors are ScmError with a code; the portal's HTTP layer maps them (lib/portal/http/status.ts).
 */

import { BrandedError } from "../errors";

export interface ScmOwner {
  /** Full namespace path, e.g. "commerce" or "commerce/backend". */
  path: string;
  name: string;
  kind: "group" | "user";
}

export interface ScmRepository {
  /** <group>/<project> */
  path: string;
  /** Last segment of the path. */
  name: string;
  /** Namespace path (everything but the last segment). */
  owner: string;
  description: string | null;
  defaultBranch: string;
  webUrl: string | null;
  lastActivityAt: string | null;
}

export interface ScmPage<T> {
  items: T[];
  /** The page to ask for next; null on the last page. */
  nextPage: number | null;
}

export interface ScmTreeEntry {
  path: string;
  type: "blob" | "tree";
}

export interface ScmMember {
  username: string;
  name: string;
  /** GitLab access level (10 guest … 50 owner); local repositories answer 40 for every committer. */
  accessLevel: number;
}

export interface ScmAuthor {
  name: string;
  email: string;
}

/** One file of a commit: content null deletes it. */
export interface ScmFileChange {
  path: string;
  content: string | null;
}

export interface ScmCommitInput {
  branch: string;
  /** Branch to start from when `branch` does not exist yet (default: the repository's default branch). */
  startBranch?: string;
  message: string;
  author?: ScmAuthor;
  files: ScmFileChange[];
}

export interface ScmCommit {
  sha: string;
  branch: string;
}

export type MergeRequestState = "opened" | "merged" | "closed";

export interface ScmMergeRequest {
  /** Number within the repository (GitLab's iid): !<iid>. */
  iid: number;
  repository: string;
  title: string;
  description: string;
  sourceBranch: string;
  targetBranch: string;
  state: MergeRequestState;
  /** Username of the author. */
  author: string;
  webUrl: string | null;
  createdAt: string;
  updatedAt: string;
  mergedAt: string | null;
  mergeCommitSha: string | null;
  /**
   * True while an open request cannot be merged into its target's current head without conflicts (a merge
   * would be refused); false once merged or closed. Local: computed per (source, target) commit pair and
   * cached with the record; GitLab: its last mergeability check of the request.
   */
  hasConflicts: boolean;
}

export interface ScmOpenMergeRequest {
  sourceBranch: string;
  targetBranch?: string;
  title: string;
  description?: string;
  /** Username recorded as author (local); GitLab records the token's user. */
  author?: string;
}

/** One file of a merge request's changes. */
export interface ScmFileDiff {
  oldPath: string;
  newPath: string;
  newFile: boolean;
  deletedFile: boolean;
  /** The file's unified diff hunks as git prints them, from the first "@@" line (no file headers); "" for a binary file. */
  diff: string;
}

export interface ScmMergeRequestDiff {
  /** Changes of the source branch since it left the target (what merging would bring). */
  files: ScmFileDiff[];
  /** True when the source cannot be merged into the target's current head without conflicts. */
  hasConflicts: boolean;
}

export interface ScmTag {
  name: string;
  commitSha: string;
  message: string | null;
  createdAt: string | null;
}

export interface ScmRelease {
  tagName: string;
  name: string;
  description: string;
  commitSha: string;
  createdAt: string | null;
}

export interface ScmProvider {
  readonly kind: "local" | "gitlab";
  listOwners(): Promise<ScmOwner[]>;
  listRepositories(options?: { owner?: string; search?: string; page?: number; perPage?: number }): Promise<ScmPage<ScmRepository>>;
  getRepository(repo: string): Promise<ScmRepository | null>;
  listMembers(repo: string): Promise<ScmMember[]>;
  /** A file's text at ref (default branch by default); null when the file or ref does not exist. */
  readFile(repo: string, filePath: string, ref?: string): Promise<string | null>;
  /** Entries under dir (the root by default), recursively when asked. Empty for an empty repository. */
  listTree(repo: string, options?: { ref?: string; path?: string; recursive?: boolean }): Promise<ScmTreeEntry[]>;
  /** The commit a branch, tag or SHA names; null when it names nothing. */
  resolveRef(repo: string, ref: string): Promise<string | null>;
  commitFiles(repo: string, input: ScmCommitInput): Promise<ScmCommit>;
  openMergeRequest(repo: string, input: ScmOpenMergeRequest): Promise<ScmMergeRequest>;
  listMergeRequests(repo: string, options?: { state?: MergeRequestState | "all" }): Promise<ScmMergeRequest[]>;
  getMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest | null>;
  /** What a merge request changes, and whether it still merges cleanly; ScmError not_found for an unknown one. */
  getMergeRequestDiff(repo: string, iid: number): Promise<ScmMergeRequestDiff>;
  /** Merges an open merge request; ScmError not_mergeable when it is not open, conflict when it conflicts with its target. */
  mergeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest>;
  closeMergeRequest(repo: string, iid: number): Promise<ScmMergeRequest>;
  listTags(repo: string): Promise<ScmTag[]>;
  createTag(repo: string, input: { name: string; ref: string; message?: string }): Promise<ScmTag>;
  listReleases(repo: string): Promise<ScmRelease[]>;
  /** A release on an existing tag. */
  createRelease(repo: string, input: { tagName: string; name?: string; description?: string }): Promise<ScmRelease>;
}

export type ScmErrorCode =
  | "not_found"
  | "conflict"
  | "not_mergeable"
  | "unauthorized"
  | "forbidden"
  | "invalid"
  | "rate_limited"
  | "unavailable";

export class ScmError extends BrandedError {
  static readonly brand: string = "scm.ScmError";

  constructor(
    readonly code: ScmErrorCode,
    message: string,
    readonly upstreamStatus?: number,
  ) {
    super(message);
    this.name = "ScmError";
  }
}

export const REPO_PATH = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;
export const BRANCH_NAME = /^(?!\/|.*\/\/|.*\.\.|.*\.lock$|.*\/$)[A-Za-z0-9._/-]{1,200}$/;

export function checkRepoPath(repo: string): void {
  if (!REPO_PATH.test(repo) || repo.split("/").some((s) => s === "." || s === "..")) {
    throw new ScmError("invalid", `"${repo}" is not a repository path (<group>/<project>)`);
  }
}

export function checkBranch(branch: string): void {
  if (!BRANCH_NAME.test(branch) || branch.startsWith("-")) throw new ScmError("invalid", `"${branch}" is not a valid branch name`);
}

/** A file path inside a repository: relative, no "..", no leading slash. */
export function checkFilePath(p: string): void {
  if (!p || p.startsWith("/") || p.split("/").some((s) => s === "" || s === "." || s === "..") || /[\0\n\r]/.test(p)) {
    throw new ScmError("invalid", `"${p}" is not a valid file path`);
  }
}
