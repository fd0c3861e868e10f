/**
 * The provider contract (lib/scm/contract-suite.ts) against the local adapter whose merge requests
 * live in the portal database: PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { contractDatabaseTargets } from "../../db/testing";
import { LocalScmProvider } from "../../scm/local";
import { providerContract } from "../../scm/contract-suite";
import { dbMergeRequestStore } from "./merge-request-store";
import { openPortalTestDatabase } from "../testing";


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
