/**
 * The provider contract (test-support/scm/contract-suite.ts) against the local adapter whose merge requests
 * live in the portal database: PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { contractDatabaseTargets } from "@/test-support/db/test-databases";
import { LocalScmProvider } from "../../scm/local";
import { author, providerContract } from "@/test-support/scm/contract-suite";
import type { MergeRequestStore } from "../../scm/merge-request-store";
import { scmMergeRequests } from "../db/schema/scm";
import { dbMergeRequestStore } from "./merge-request-store";
import { openPortalTestDatabase } from "@/test-support/portal/test-portal";

providerContract(
  contractDatabaseTargets().map((target) => [
    `local (${target})`,
    async () => {
      const root = await mkdtemp(path.join(tmpdir(), "scm-local-"));
      const db = await openPortalTestDatabase(target);
      const provider = new LocalScmProvider({ root, store: dbMergeRequestStore(db.db) });
      return {
        provider,
        seed: provider,
        close: async () => {
          await db.close();
          await rm(root, { recursive: true, force: true });
        },
      };
    },
  ]),
);

describe("the mergeability of a local merge request, kept in its row", () => {
  it("is checked once per pair of commits, whichever portal instance lists it", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "scm-local-"));
    const db = await openPortalTestDatabase(contractDatabaseTargets()[0]);
    try {
      // Two instances: each its own provider and store over the same repositories and database.
      const checksBy = { one: 0, two: 0 };
      const instance = (name: keyof typeof checksBy) => {
        const store = dbMergeRequestStore(db.db);
        const counting: MergeRequestStore = {
          ...store,
          setMergeability: (repo, iid, m) => {
            checksBy[name]++;
            return store.setMergeability(repo, iid, m);
          },
        };
        return new LocalScmProvider({ root, store: counting });
      };
      const one = instance("one");
      const two = instance("two");
      await one.createRepository("team/app");
      await one.commitFiles("team/app", { branch: "main", message: "Start", author, files: [{ path: "app.yaml", content: "level: info\n" }] });
      await one.commitFiles("team/app", { branch: "debug", message: "Debug", author, files: [{ path: "app.yaml", content: "level: debug\n" }] });
      const mr = await one.openMergeRequest("team/app", { sourceBranch: "debug", title: "Debug" });
      await one.commitFiles("team/app", { branch: "main", message: "Warn", author, files: [{ path: "app.yaml", content: "level: warn\n" }] });
      checksBy.one = 0;

      expect((await one.listMergeRequests("team/app")).map((m) => m.hasConflicts)).toEqual([true]);
      expect(checksBy).toEqual({ one: 1, two: 0 });
      const [row] = await db.db.select().from(scmMergeRequests).where(and(eq(scmMergeRequests.repository, "team/app"), eq(scmMergeRequests.iid, mr.iid)));
      expect(row).toMatchObject({ checkedSourceSha: await one.resolveRef("team/app", "debug"), checkedTargetSha: await one.resolveRef("team/app", "main"), hasConflicts: true });

      // The other instance answers the same from the row, without a check of its own; so do later lists.
      expect((await two.listMergeRequests("team/app")).map((m) => m.hasConflicts)).toEqual([true]);
      expect((await two.getMergeRequest("team/app", mr.iid))?.hasConflicts).toBe(true);
      expect((await one.listMergeRequests("team/app")).map((m) => m.hasConflicts)).toEqual([true]);
      expect(checksBy).toEqual({ one: 1, two: 0 });

      // A branch that moves makes the kept verdict stale: the next reader checks again.
      await one.commitFiles("team/app", { branch: "debug", message: "Warn too", author, files: [{ path: "app.yaml", content: "level: warn\n" }] });
      expect((await two.listMergeRequests("team/app")).map((m) => m.hasConflicts)).toEqual([false]);
      expect(checksBy).toEqual({ one: 1, two: 1 });
    } finally {
      await db.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
