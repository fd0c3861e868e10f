// Shapes more than one feature's contract answers. zod only: browser code imports the contracts.
import { z } from "zod";
import { configValueSchema } from "@/lib/portal/gitops/config-values";

/** A merge request of the config repository as source control reports it; `iid` is its number (!iid) everywhere. */
export const MergeRequest = z.object({
  iid: z.number().int().describe("The merge request's number in the config repository (!iid); the id of /api/merge-requests/{id}"),
  repository: z.string(),
  title: z.string(),
  description: z.string(),
  sourceBranch: z.string(),
  targetBranch: z.string(),
  state: z.enum(["opened", "merged", "closed"]),
  author: z.string().describe("Username of the author"),
  webUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  mergedAt: z.string().nullable(),
  mergeCommitSha: z.string().nullable(),
  hasConflicts: z.boolean().describe("True while an open request conflicts with its target: a merge would be refused"),
});
export type MergeRequest = z.infer<typeof MergeRequest>;

/** Config values of one environment (what config-values.ts accepts). */
export const ConfigValues = z.record(z.string(), configValueSchema);
