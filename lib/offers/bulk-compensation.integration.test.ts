/**
 * Incident compensation in bulk through the admin API on a real database: a preview that counts
 * players, the total, repeats, unknown and invalid ids; four eyes always (never the requester;
 * reject with a reason; stale requests expire); once approved, every player granted exactly once
 * (two runners at once, a re-run, a cancel mid-job) as a signed reward.granted webhook with source
 * support; the result as CSV; bad input a 4xx that changes nothing.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { eventually, startReceiver, type Receiver } from "@/test-support/offers/delivery";
import { startOffersTestApp, storedStateDigest, type OffersTestContext } from "@/test-support/offers/test-app";
import { rowsOf } from "../db";
import * as S from "./contract";
import { players as playersTable } from "./db/schema";
import { deleteEndedBulkItems } from "./engine/bulk-compensation";
import { BulkCompensationRunner } from "./engine/bulk-runner";
import { SUPPORT_GRANT_PENDING_MS } from "./engine/four-eyes";
import { DeliveryWorker } from "./delivery/worker";

const ADMIN = "bulk-admin-token-0123456789";

describe.each(testDatabaseTargets())("incident compensation in bulk on %s", (target) => {
  let t: OffersTestContext;
  let receiver: Receiver;
  let worker: DeliveryWorker;
  let batchNo = 0;
  const admin = (method: "GET" | "POST", url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/admin/games/game-a${url}`, headers: { authorization: `Bearer ${ADMIN}`, ...headers }, ...(payload === undefined ? {} : { payload }) });
  const reward = { kind: "coins", rewardId: "gold", amount: 100, reason: "Server outage on 3 May", actor: "sam@support" };
  const ask = (players: object, headers: Record<string, string> = {}, body: object = {}) => admin("POST", "/bulk-compensations", { ...reward, ...body, players }, headers);
  const jobOf = (res: { statusCode: number; body: string; json: () => unknown }) => {
    expect(res.statusCode, res.body).toBe(200);
    return S.BulkCompensationResponse.parse(res.json()).job;
  };
  const decide = (jobId: string, decision: "approve" | "reject" | "cancel", body: object) => admin("POST", `/bulk-compensations/${jobId}/${decision}`, body);
  const runner = (options: ConstructorParameters<typeof BulkCompensationRunner>[1] = {}) =>
    new BulkCompensationRunner(t.app.offers.engine, { onGranted: (g) => t.app.offers.engine.rewardGranted(g), ...options });
  /** Ledger rows of support grants per player of a job (a player granted twice would count 2). */
  const grantsPerPlayer = async (jobId: string) =>
    rowsOf<{ player_id: string; n: number | string }>(
      await t.database.db.execute(sql`select player_id, count(*) as n from offers_reward_ledger where source_kind = 'support' and source_id like ${`${jobId}:%`} group by player_id`),
    ).map((r) => ({ playerId: r.player_id, n: Number(r.n) }));
  const eventsOf = async (jobId: string) =>
    rowsOf<{ player_id: string; actor: string; approved_by: string; reason: string; source: string; event_id: string }>(
      await t.database.db.execute(sql`select player_id, actor, approved_by, reason, source, event_id from offers_reward_events where source_id like ${`${jobId}:%`}`),
    );

  /** Everything stored but deliveries (the delivery worker moves them meanwhile): a refused request must leave it as it was. */
  const digest = () => storedStateDigest(t.database.db, { withoutDeliveryWork: true });

  /** n players of the live environment, new per test (inserted directly: the API would take a snapshot push each). */
  async function newPlayers(n: number, extra: Partial<typeof playersTable.$inferInsert> = {}): Promise<string[]> {
    batchNo += 1;
    const ids = Array.from({ length: n }, (_, i) => `bulk${batchNo}-p${String(i).padStart(5, "0")}`);
    const now = t.clock.now();
    await t.database.db.insert(playersTable).values(ids.map((playerId) => ({ gameId: "game-a", playerId, createdAt: now, updatedAt: now, ...extra })));
    return ids;
  }

  beforeAll(async () => {
    t = await startOffersTestApp(target, { adminToken: ADMIN, maxBodyBytes: 64 * 1024 });
    const api = t.apiHeaders();
    expect((await t.inject({ method: "PUT", url: "/v1/currencies/gold", headers: api, payload: { name: "Gold", image: "https://img.example/gold.png" } })).statusCode).toBe(200);
    receiver = await startReceiver();
    const endpoint = await t.post("/v1/webhooks/endpoints", { url: receiver.url }, api);
    expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(200);
    receiver.secret = S.WebhookEndpointCreated.parse(endpoint.body).secret;
    worker = new DeliveryWorker({ db: t.app.offers.engine.db, box: t.app.offers.box, addressPolicy: { allowPrivate: true }, timeoutMs: 5_000, pollMs: 20, concurrency: 4, perEndpoint: 2, retry: { delaysMs: [30], jitter: 0 } });
    worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await t?.close();
  });

  it("previews a CSV list: players, total, repeats counted once, unknown ids (another environment's too) and invalid ids, storing nothing", async () => {
    const ids = await newPlayers(3);
    // A player of the test environment: its id is unknown to the live one.
    expect((await t.post("/v1/player/snapshot", { playerId: "only-in-test" }, t.apiHeaders(t.testGame))).status).toBe(200);
    const before = await digest();
    const list = `playerId\n${ids[0]}\n${ids[1]}, ${ids[2]}\n${ids[0]}\nonly-in-test\nno such player\n\n`;
    const res = await admin("POST", "/bulk-compensations/preview", { ...reward, players: { list } });
    expect(res.statusCode, res.body).toBe(200);
    const { preview } = S.BulkPreviewResponse.parse(res.json());
    expect(preview).toMatchObject({ players: 3, totalAmount: 300, name: "Gold", duplicates: 1, unknown: 1, unknownSample: ["only-in-test"], invalid: 1 });
    expect(preview.invalidSample).toEqual([{ line: 6, value: "no such player" }]);
    expect(preview.duplicateSample).toEqual([{ line: 4, value: ids[0] }]);
    expect(await digest()).toBe(before);
  });

  it("always waits for a second person; the approval grants every player once, as a signed webhook with source support, and the result downloads", async () => {
    const ids = await newPlayers(30);
    const job = jobOf(await ask({ list: [...ids, "ghost-player"].join("\n") }));
    expect(job).toMatchObject({ status: "pending", requestedBy: "sam@support", preview: { players: 30, totalAmount: 3000, unknown: 1 }, progress: { granted: 0, remaining: 30, total: 30 } });
    const queue = S.BulkCompensationList.parse((await admin("GET", "/bulk-compensations?status=pending")).json());
    expect(queue.jobs.map((j) => j.jobId)).toContain(job.jobId);
    expect(queue.pending).toBeGreaterThanOrEqual(1);

    // Nothing runs while it waits.
    expect(await runner().runOnce()).toBe(0);
    for (const actor of ["sam@support", " SAM@Support "]) {
      const own = await decide(job.jobId, "approve", { actor });
      expect(own.statusCode).toBe(403);
      expect(own.json().message).toBe("four-eyes-same-person");
    }
    const approved = jobOf(await decide(job.jobId, "approve", { actor: "lee@lead", reason: "incident confirmed" }));
    expect(approved).toMatchObject({ status: "running", decidedBy: "lee@lead" });
    // A double click answers the same job; a second approver is refused.
    expect(jobOf(await decide(job.jobId, "approve", { actor: "lee@lead" })).status).toBe("running");
    expect((await decide(job.jobId, "approve", { actor: "kim@lead" })).json().message).toBe("bulk-job-decided");

    expect(await runner({ batchSize: 7 }).runOnce()).toBe(30);
    const done = jobOf(await admin("GET", `/bulk-compensations/${job.jobId}`));
    expect(done).toMatchObject({ status: "done", progress: { granted: 30, remaining: 0, total: 30 } });
    expect(done.finishedAt).not.toBeNull();
    // A re-run grants nobody again.
    expect(await runner().runOnce()).toBe(0);
    const counts = await grantsPerPlayer(job.jobId);
    expect(counts).toHaveLength(30);
    expect(counts.every((c) => c.n === 1)).toBe(true);
    const events = await eventsOf(job.jobId);
    expect(events).toHaveLength(30);
    expect(events.every((e) => e.source === "support" && e.actor === "sam@support" && e.approved_by === "lee@lead" && e.reason === "Server outage on 3 May")).toBe(true);

    const delivered = await eventually(() => {
      const found = receiver.received.find((r) => r.id === events[0]!.event_id);
      expect(found).toBeDefined();
      return found!;
    });
    const verified = new Webhook(receiver.secret!).verify(delivered.body, { "webhook-id": delivered.id, "webhook-timestamp": delivered.timestamp, "webhook-signature": delivered.signature }) as S.RewardGrantedEvent;
    expect(verified.data).toMatchObject({ kind: "support", source: "support", actor: "sam@support", approvedBy: "lee@lead", rewards: [{ rewardId: "gold", amount: 100 }] });

    const result = await admin("GET", `/bulk-compensations/${job.jobId}/result`);
    expect(result.statusCode).toBe(200);
    expect(result.headers["content-type"]).toMatch(/^text\/csv/);
    const lines = result.body.trim().split("\n");
    expect(lines[0]).toBe("playerId,outcome,grantId");
    expect(lines).toContain("ghost-player,unknown,");
    expect(lines).toContain(`${ids[0]},granted,${job.jobId}:${ids[0]}`);
    expect(lines).toHaveLength(32);
  });

  it("two runners at once (two instances) share the job and grant each player exactly once", async () => {
    const ids = await newPlayers(120);
    const job = jobOf(await ask({ list: ids.join("\n") }));
    jobOf(await decide(job.jobId, "approve", { actor: "lee@lead" }));
    const [a, b] = await Promise.all([runner({ batchSize: 5, concurrency: 3 }).runOnce(), runner({ batchSize: 5, concurrency: 3 }).runOnce()]);
    expect(a + b).toBe(120);
    const counts = await grantsPerPlayer(job.jobId);
    expect(counts).toHaveLength(120);
    expect(counts.every((c) => c.n === 1)).toBe(true);
    expect(jobOf(await admin("GET", `/bulk-compensations/${job.jobId}`)).status).toBe("done");
  });

  it("is idempotent with Idempotency-Key: a double submit is one job; the key with another request is 422", async () => {
    const ids = await newPlayers(4);
    const key = { "idempotency-key": "incident-42-comp" };
    const [first, second] = await Promise.all([ask({ list: ids.join("\n") }, key), ask({ list: ids.join("\n") }, key)]);
    expect(jobOf(first).jobId).toBe(jobOf(second).jobId);
    const before = await digest();
    const other = await ask({ list: ids.join("\n") }, key, { amount: 5 });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe("idempotency-key-reused");
    expect(await digest()).toBe(before);
  });

  it("cancel mid-job: players granted stay granted, nobody else is granted, the result says who was cancelled", async () => {
    const ids = await newPlayers(40);
    const job = jobOf(await ask({ list: ids.join("\n") }));
    jobOf(await decide(job.jobId, "approve", { actor: "lee@lead" }));
    expect(await runner({ batchSize: 10, concurrency: 1, maxBatches: 1 }).runOnce()).toBe(10);
    expect(jobOf(await admin("GET", `/bulk-compensations/${job.jobId}`)).progress).toMatchObject({ granted: 10, remaining: 30 });
    expect((await decide(job.jobId, "cancel", { actor: "sam@support" })).statusCode).toBe(400);
    const cancelled = jobOf(await decide(job.jobId, "cancel", { actor: "sam@support", reason: "wrong list" }));
    expect(cancelled).toMatchObject({ status: "cancelled", cancelledBy: "sam@support", progress: { granted: 10, remaining: 0, cancelled: 30, total: 40 } });
    expect(jobOf(await decide(job.jobId, "cancel", { actor: "sam@support", reason: "wrong list" })).status).toBe("cancelled");
    expect(await runner().runOnce()).toBe(0);
    expect(await grantsPerPlayer(job.jobId)).toHaveLength(10);
    const lines = (await admin("GET", `/bulk-compensations/${job.jobId}/result`)).body.trim().split("\n");
    expect(lines.filter((l) => l.endsWith(",cancelled,"))).toHaveLength(30);
    const finished = await decide(job.jobId, "approve", { actor: "kim@lead" });
    expect(finished.statusCode).toBe(409);
  });

  it("an audience rule: the preview counts who matches now; approved, exactly those are granted", async () => {
    const veterans = await newPlayers(6, { daysInGame: 400 });
    await newPlayers(5, { daysInGame: 3 });
    const res = await admin("POST", "/bulk-compensations/preview", { ...reward, players: { audience: { field: "daysInGame", op: "gte", value: 365 } } });
    expect(res.statusCode, res.body).toBe(200);
    const { preview } = S.BulkPreviewResponse.parse(res.json());
    expect(preview.players).toBeGreaterThanOrEqual(6);
    const job = jobOf(await ask({ audience: { field: "daysInGame", op: "gte", value: 365 } }));
    expect(job.source).toBe("audience");
    jobOf(await decide(job.jobId, "approve", { actor: "lee@lead" }));
    await runner().runOnce();
    const granted = new Set((await grantsPerPlayer(job.jobId)).map((c) => c.playerId));
    expect(veterans.every((id) => granted.has(id))).toBe(true);
    expect(granted.size).toBe(preview.players);
  });

  it("a rejection needs a reason and grants nothing; a stale request expires and cannot be approved", async () => {
    const ids = await newPlayers(3);
    const job = jobOf(await ask({ list: ids.join("\n") }));
    expect((await decide(job.jobId, "reject", { actor: "lee@lead" })).statusCode).toBe(400);
    expect(jobOf(await decide(job.jobId, "reject", { actor: "lee@lead", reason: "not our outage" }))).toMatchObject({ status: "rejected", decisionReason: "not our outage" });
    expect((await decide(job.jobId, "approve", { actor: "kim@lead" })).statusCode).toBe(409);

    const stale = jobOf(await ask({ list: ids.join("\n") }));
    t.clock.advance(SUPPORT_GRANT_PENDING_MS);
    const late = await decide(stale.jobId, "approve", { actor: "lee@lead" });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe("bulk-job-expired");
    expect(S.BulkCompensationList.parse((await admin("GET", "/bulk-compensations?status=pending")).json()).jobs.map((j) => j.jobId)).not.toContain(stale.jobId);
    expect(await t.app.offers.engine.expireBulkCompensations()).toBeGreaterThanOrEqual(1);
    expect(jobOf(await admin("GET", `/bulk-compensations/${stale.jobId}`)).status).toBe("expired");
    await runner().runOnce();
    expect(await grantsPerPlayer(job.jobId)).toEqual([]);
    expect(await grantsPerPlayer(stale.jobId)).toEqual([]);
  });

  it("bad input is a clear 4xx and changes nothing: amounts, unknown reward, NUL, nobody known, a 10 MB list of too many ids", async () => {
    const ids = await newPlayers(2);
    const list = ids.join("\n");
    const before = await digest();
    const cases: Array<[object, number, string]> = [
      [{ ...reward, amount: -5, players: { list } }, 400, "invalid-request"],
      [{ ...reward, amount: 1e12, players: { list } }, 400, "invalid-request"],
      [{ ...reward, amount: 1.5, players: { list } }, 400, "invalid-request"],
      [{ ...reward, rewardId: "diamonds", players: { list } }, 400, "unknown-reward"],
      [{ ...reward, reason: "a\u0000b", players: { list } }, 400, "invalid-request"],
      [{ ...reward, players: { list: `${ids[0]}\n\u0000` } }, 400, "invalid-request"],
      [{ ...reward, reason: "", players: { list } }, 400, "invalid-request"],
      [{ ...reward, players: { list: "nobody-1\nnobody-2" } }, 400, "bulk-no-players"],
      [{ ...reward, players: { list, extra: 1 } }, 400, "invalid-request"],
      [{ ...reward, players: { audience: { field: "nope", op: "gt", value: 1 } } }, 400, "invalid-request"],
    ];
    for (const [body, status, message] of cases) {
      const res = await admin("POST", "/bulk-compensations", body);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().message).toBe(message);
    }
    // 10 MB: 1,165,084 well-formed ids, more than one job takes.
    const huge = "p0000000\n".repeat(Math.ceil((10 * 1024 * 1024) / 9)).replace(/p0000000/g, () => `p${String((batchNo = batchNo + 1)).padStart(7, "0")}`);
    const big = await admin("POST", "/bulk-compensations", { ...reward, players: { list: huge } });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe("bulk-too-many-players");
    expect(await digest()).toBe(before);
  });

  it("retention: items of jobs ended longer ago are deleted in bounded sweeps; the job keeps its counts, its result says it is gone, running jobs keep theirs", async () => {
    const RETENTION_MS = 30 * 86_400_000;
    const sweep = (limit: number) => deleteEndedBulkItems(t.database.db, new Date(t.clock.now().getTime() - RETENTION_MS), t.clock.now(), limit);
    const itemsOf = async (jobId: string) =>
      Number(rowsOf<{ n: number | string }>(await t.database.db.execute(sql`select count(*) as n from offers_bulk_compensation_items where job_id = ${jobId}`))[0]!.n);
    const ids = await newPlayers(12);
    const done = jobOf(await ask({ list: [...ids, "ghost-player"].join("\n") }));
    jobOf(await decide(done.jobId, "approve", { actor: "lee@lead" }));
    await runner().runOnce();
    const rejected = jobOf(await ask({ list: ids.slice(0, 4).join("\n") }));
    jobOf(await decide(rejected.jobId, "reject", { actor: "lee@lead", reason: "duplicate of the other" }));
    const running = jobOf(await ask({ list: ids.slice(4).join("\n") }));
    jobOf(await decide(running.jobId, "approve", { actor: "lee@lead" }));
    expect(await runner({ batchSize: 3, concurrency: 1, maxBatches: 1 }).runOnce()).toBe(3);
    const before = {
      done: jobOf(await admin("GET", `/bulk-compensations/${done.jobId}`)),
      rejected: jobOf(await admin("GET", `/bulk-compensations/${rejected.jobId}`)),
    };
    expect(before.done.progress).toEqual({ granted: 12, remaining: 0, cancelled: 0, total: 12 });

    // Within the retention nothing is deleted.
    await sweep(10_000);
    expect(await itemsOf(done.jobId)).toBe(13);
    expect((await admin("GET", `/bulk-compensations/${done.jobId}/result`)).statusCode).toBe(200);

    t.clock.advance(RETENTION_MS + 60_000);
    // A sweep deletes at most its limit; the job reads its stored counts from the first one.
    expect(await sweep(5)).toBe(5);
    expect(jobOf(await admin("GET", `/bulk-compensations/${done.jobId}`)).progress).toEqual(before.done.progress);
    while ((await sweep(5)) > 0) {
      // the next bounded sweep
    }
    expect(await itemsOf(done.jobId)).toBe(0);
    expect(await itemsOf(rejected.jobId)).toBe(0);
    for (const [name, job] of Object.entries(before)) {
      const after = jobOf(await admin("GET", `/bulk-compensations/${job.jobId}`));
      expect(after, name).toMatchObject({ status: job.status, progress: job.progress, finishedAt: job.finishedAt });
      expect(after.resultDeletedAt, name).not.toBeNull();
    }
    const gone = await admin("GET", `/bulk-compensations/${done.jobId}/result`);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().message).toBe("bulk-result-deleted");
    // The grants themselves stay: one ledger row per player.
    expect(await grantsPerPlayer(done.jobId)).toHaveLength(12);

    // A running job keeps its items, whatever its age, and finishes as usual.
    expect(await itemsOf(running.jobId)).toBe(8);
    await runner().runOnce();
    expect(jobOf(await admin("GET", `/bulk-compensations/${running.jobId}`))).toMatchObject({ status: "done", progress: { granted: 8, total: 8 }, resultDeletedAt: null });
    expect((await admin("GET", `/bulk-compensations/${running.jobId}/result`)).statusCode).toBe(200);
  });
});
