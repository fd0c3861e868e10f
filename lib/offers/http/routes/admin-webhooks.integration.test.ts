/**
 * Webhook endpoints under the one optimistic-concurrency rule: every read answers the endpoint's ETag;
 * on the admin API a change, rotation or delete without If-Match is 428, with a stale one 412 carrying
 * the current ETag, and of two editors on the same ETag exactly one wins. Game servers may omit If-Match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseTargets } from "@/test-support/db/test-databases";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };

describe.each(testDatabaseTargets())("webhook endpoints' ETags on %s", (target) => {
  let t: OffersTestContext;
  const admin = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/admin/games/game-a/webhooks${url}`, headers: { ...ADMIN, ...headers }, ...(payload === undefined ? {} : { payload }) });
  const server = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: object, headers: Record<string, string> = {}) =>
    t.inject({ method, url: `/v1/webhooks${url}`, headers: { ...t.apiHeaders(), ...headers }, ...(payload === undefined ? {} : { payload }) });
  const create = async (path: string) => {
    const created = await admin("POST", "/endpoints", { url: `https://hooks.example.com/${path}` });
    expect(created.statusCode).toBe(200);
    expect(created.headers.etag).toBe(created.json().etag);
    return created.json() as { endpointId: string; etag: string };
  };
  const stored = async (endpointId: string) => (await admin("GET", `/endpoints/${endpointId}`)).json();

  beforeAll(async () => {
    t = await startOffersTestApp(target);
  });
  afterAll(async () => t?.close());

  it("answers an opaque ETag on every read, the same in the list, the single read's header and the game server's view", async () => {
    const { endpointId, etag } = await create("reads");
    const one = await admin("GET", `/endpoints/${endpointId}`);
    expect(one.statusCode).toBe(200);
    expect(one.headers.etag).toBe(etag);
    expect(one.json().etag).toBe(etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const listed = (await admin("GET", "")).json().endpoints.find((e: { endpointId: string }) => e.endpointId === endpointId);
    expect(listed.etag).toBe(etag);
    const viaServer = await server("GET", `/endpoints/${endpointId}`);
    expect(viaServer.headers.etag).toBe(etag);
    expect(viaServer.json().etag).toBe(etag);
  });

  it("refuses a change, a rotation or a delete without If-Match (428), and changes nothing", async () => {
    const { endpointId } = await create("unconditional");
    const before = await stored(endpointId);
    for (const answer of [
      await admin("PATCH", `/endpoints/${endpointId}`, { enabled: false }),
      await admin("POST", `/endpoints/${endpointId}/rotate-secret`, {}),
      await admin("DELETE", `/endpoints/${endpointId}`),
    ]) {
      expect(answer.statusCode).toBe(428);
      expect(answer.json()).toEqual({ message: "precondition-required" });
    }
    expect(await stored(endpointId)).toEqual(before);
  });

  it("changes, rotates and deletes with the current ETag; a stale one is 412 with the current ETag and changes nothing", async () => {
    const { endpointId, etag } = await create("conditional");
    const disabled = await admin("PATCH", `/endpoints/${endpointId}`, { enabled: false }, { "if-match": etag });
    expect(disabled.statusCode).toBe(200);
    const afterPatch = disabled.json().etag;
    expect(disabled.headers.etag).toBe(afterPatch);
    expect(afterPatch).not.toBe(etag);

    const stale = await admin("PATCH", `/endpoints/${endpointId}`, { description: "stale" }, { "if-match": etag });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({ message: "precondition-failed", etag: afterPatch });
    expect(stale.headers.etag).toBe(afterPatch);
    expect((await stored(endpointId)).description).toBe("");

    // A rotation moves the ETag too: a change read before it is stale.
    const rotated = await admin("POST", `/endpoints/${endpointId}/rotate-secret`, {}, { "if-match": afterPatch });
    expect(rotated.statusCode).toBe(200);
    const afterRotation = rotated.json().etag;
    expect(rotated.headers.etag).toBe(afterRotation);
    expect(afterRotation).not.toBe(afterPatch);
    expect((await stored(endpointId)).etag).toBe(afterRotation);
    expect((await admin("POST", `/endpoints/${endpointId}/rotate-secret`, {}, { "if-match": afterPatch })).json()).toEqual({ message: "precondition-failed", etag: afterRotation });

    const staleDelete = await admin("DELETE", `/endpoints/${endpointId}`, undefined, { "if-match": afterPatch });
    expect(staleDelete.statusCode).toBe(412);
    expect((await admin("GET", `/endpoints/${endpointId}`)).statusCode).toBe(200);
    expect((await admin("DELETE", `/endpoints/${endpointId}`, undefined, { "if-match": afterRotation })).json()).toEqual({ deleted: true });
    // Gone: any If-Match now names nothing.
    expect((await admin("PATCH", `/endpoints/${endpointId}`, { enabled: true }, { "if-match": afterRotation })).json()).toEqual({ message: "webhook-endpoint-not-found" });
  });

  it("two editors on the same ETag at once: exactly one change is made, the others are 412 with the winner's ETag", async () => {
    const { endpointId, etag } = await create("race");
    // Several at once, so that on PostgreSQL their reads overlap: without the row lock more than one would win.
    const answers = await Promise.all([
      ...["Alice", "Bob", "Carol", "Dan", "Eve"].map((name) => admin("PATCH", `/endpoints/${endpointId}`, { description: name }, { "if-match": etag })),
      admin("POST", `/endpoints/${endpointId}/rotate-secret`, {}, { "if-match": etag }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 412, 412, 412, 412, 412]);
    const current = await stored(endpointId);
    for (const loser of answers.filter((a) => a.statusCode === 412)) expect(loser.json()).toEqual({ message: "precondition-failed", etag: current.etag });
    expect(answers.find((a) => a.statusCode === 200)!.json().etag).toBe(current.etag);
  });

  it("game servers may omit If-Match; one they send is checked the same way", async () => {
    const created = await server("POST", "/endpoints", { url: "https://hooks.example.com/server" });
    expect(created.headers.etag).toBe(created.json().etag);
    const { endpointId, etag } = created.json();
    const unconditional = await server("PATCH", `/endpoints/${endpointId}`, { description: "no If-Match" });
    expect(unconditional.statusCode).toBe(200);
    const current = unconditional.json().etag;
    expect(unconditional.headers.etag).toBe(current);
    const stale = await server("PATCH", `/endpoints/${endpointId}`, { description: "stale" }, { "if-match": etag });
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toEqual({ message: "precondition-failed", etag: current });
    expect((await server("POST", `/endpoints/${endpointId}/rotate-secret`, {}, { "if-match": etag })).statusCode).toBe(412);
    expect((await server("DELETE", `/endpoints/${endpointId}`, undefined, { "if-match": etag })).statusCode).toBe(412);
    expect((await server("POST", `/endpoints/${endpointId}/rotate-secret`, {}, { "if-match": current })).statusCode).toBe(200);
    expect((await server("DELETE", `/endpoints/${endpointId}`)).json()).toEqual({ deleted: true });
  });
});
