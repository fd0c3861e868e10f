import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { simpleGit } from "simple-git";
import { createScratchPostgres } from "@/test-support/db/test-databases";
import { createConfigRemote } from "@/test-support/catalog/config-remote";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { CatalogWriteError } from "../catalog/errors";
import type { Catalog } from "../catalog/catalog";
import { portalMigrations } from "./db/database";
import { portalConfigSchema } from "./portal-yaml";
import { createPortalServices, type PortalServices } from "./services";
import { CATALOG_CHANNEL } from "./catalog-following";

const RECORDS = 10;
const nameOf = (i: number) => `svc-${String(i).padStart(2, "0")}`;
const author = (id: string) => ({ id, name: id });

/** Two portal instances as deployed for availability: one PostgreSQL database, one config remote, a data directory each. */
describe.skipIf(!process.env.TEST_DATABASE_URL)("the catalogs of two portal instances on one PostgreSQL and one config remote", () => {
  let root: string;
  let remote: string;
  let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
  let direct: pg.Client;
  const services: PortalServices[] = [];
  let a: Catalog;
  let b: Catalog;

  const instance = (name: string): PortalServices => {
    const dataDir = path.join(root, name);
    const config = portalConfigSchema.parse({ roles: { default: [], users: {}, groups: {} } });
    const s = createPortalServices({
      database: { url: scratch.url },
      // The deaf poll is slowed so a test of re-listening proves the catch-up, not the poll.
      catalog: { dataDir, shippedDir: path.join(root, "unused"), remoteUrl: remote, following: { deafPollMs: 60_000, safetyPollMs: 0 } },
      gitops: { provider: "local", dataDir, gitlabUrl: "http://gitlab.invalid", demo: false, configRepoUrl: remote },
      auth: { secret: "catalog-following-test-secret-0123", sessionCookieName: "s", devLogin: true, config: () => config },
      offersAdmin: () => ({ baseUrl: "http://offers.invalid", token: "unused-offers-admin-token" }),
    });
    services.push(s);
    return s;
  };
  /** The application names of listening connections on this database (lib/db names them `listen <channel>`). */
  const listeners = async () =>
    (await direct.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and application_name = $1", [`listen ${CATALOG_CHANNEL}`])).rows;
  const etagIn = (catalog: Catalog, name: string) => catalog.get(name)?.etag;
  const edit = (catalog: Catalog, name: string, description: string, by: string) =>
    catalog.update(name, { mode: "merge", body: { metadata: { description } }, ifMatch: "*", author: author(by) });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "catalog-following-"));
    const records = Object.fromEntries(Array.from({ length: RECORDS }, (_, i) => [`${nameOf(i)}.yaml`, yamlOf(validComponent(nameOf(i)))]));
    ({ bare: remote } = await createConfigRemote(root, records));

    scratch = await createScratchPostgres({ prefix: "catalog_follow", template: portalMigrations });
    direct = new pg.Client({ connectionString: scratch.url });
    await direct.connect();
    [a, b] = await Promise.all([instance("a").catalog(), instance("b").catalog()]);
    // Both database connections open, each listening.
    await Promise.all(services.map((s) => s.database()));
    for (let waited = 0; (await listeners()).length < 2; waited += 50) {
      if (waited > 10_000) throw new Error("the two instances are not both listening after 10 s");
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    for (const s of services) await s.close().catch(() => {});
    await direct?.end();
    await scratch?.drop();
    await rm(root, { recursive: true, force: true });
  });

  it("a record edited through one shows through the other, which re-reads that file only", async () => {
    const written = await edit(a, nameOf(0), "edited through A", "alice");
    expect(written.changed).toBe(true);
    await expect.poll(() => etagIn(b, nameOf(0)), { timeout: 5_000 }).toBe(written.entry.etag);
    expect(b.get(nameOf(0))?.component.metadata.description).toBe("edited through A");
    expect(b.loadedCommit).toBe(written.commit);
    expect(b.lastLoad).toEqual({ source: "diff", filesRead: 1 });
  });

  it("edits through both at once: none is lost or refused, and both end on the same commit with every edit", async () => {
    const rounds = 3;
    const results = await Promise.allSettled(
      Array.from({ length: RECORDS }, (_, i) =>
        (async () => {
          for (let round = 1; round <= rounds; round++) await edit(i % 2 ? b : a, nameOf(i), `round ${round} of ${nameOf(i)}`, i % 2 ? "bob" : "alice");
        })(),
      ),
    );
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    const head = (await simpleGit(remote).raw(["rev-parse", "main"])).trim();
    await expect.poll(() => [a.loadedCommit, b.loadedCommit], { timeout: 5_000 }).toEqual([head, head]);
    for (const catalog of [a, b]) {
      for (let i = 0; i < RECORDS; i++) expect(catalog.get(nameOf(i))?.component.metadata.description).toBe(`round ${rounds} of ${nameOf(i)}`);
    }
    // Every edit is one commit of the remote's history, and the history is one line.
    const log = (await simpleGit(remote).raw(["log", "--format=%s", "--first-parent", "main"])).trim().split("\n");
    expect(log.filter((s) => s.startsWith("Update component")).length).toBe(1 + RECORDS * rounds);
  });

  it("the same record edited through both from one version: one is accepted, the other refused precondition-failed", async () => {
    const base = a.get(nameOf(1))!.etag;
    await expect.poll(() => etagIn(b, nameOf(1)), { timeout: 5_000 }).toBe(base);
    const outcomes = await Promise.allSettled([
      a.update(nameOf(1), { mode: "merge", body: { metadata: { description: "A's" } }, ifMatch: base, author: author("alice") }),
      b.update(nameOf(1), { mode: "merge", body: { metadata: { description: "B's" } }, ifMatch: base, author: author("bob") }),
    ]);
    const accepted = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(accepted).toHaveLength(1);
    expect(refused.map((r) => (r.reason instanceof CatalogWriteError ? r.reason.code : String(r.reason)))).toEqual(["precondition-failed"]);
    const winner = (accepted[0] as PromiseFulfilledResult<{ entry: { component: { metadata: { description?: string } } } }>).value.entry.component.metadata.description;
    for (const catalog of [a, b]) await expect.poll(() => catalog.get(nameOf(1))?.component.metadata.description, { timeout: 5_000 }).toBe(winner);
  });

  it("a commit announced while the other could not listen is shown once it listens again", async () => {
    const before = await listeners();
    // Drop both listening connections; each instance listens again after a backoff.
    await direct.query("select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1", [`listen ${CATALOG_CHANNEL}`]);
    const written = await edit(a, nameOf(2), "written while nobody listened", "alice");
    await expect.poll(() => etagIn(b, nameOf(2)), { timeout: 15_000 }).toBe(written.entry.etag);
    await expect.poll(async () => (await listeners()).length, { timeout: 10_000 }).toBe(before.length);
  });
});
