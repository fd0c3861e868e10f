// Personal API tokens through the routes on a real portal (test-support/portal/test-portal.ts): a token answered from the
// authorizer's cache stops working as soon as it is revoked through this portal.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";

const tokens = await import("@/app/api/tokens/route");
const token = await import("@/app/api/tokens/[id]/route");
const { GET: list } = await import("@/app/api/components/route");

const req = (url: string, init: RequestInit = {}) => new Request(`http://portal.test${url}`, init);
const byId = (id: string) => ({ params: Promise.resolve({ id }) });

let portal: PortalTest;
let session: Record<string, string>;
beforeAll(async () => {
  portal = await startPortalTest();
  session = await portal.signIn({ id: "tess", roles: ["engineer"] }, "session");
});
afterAll(async () => {
  await portal?.close();
});

describe("personal API tokens", () => {
  it("a revoked token is refused on the next request, although it was just answered from memory", async () => {
    const created = await tokens.POST(req("/api/tokens", { method: "POST", headers: { ...session, "content-type": "application/json" }, body: JSON.stringify({ name: "ci" }) }));
    expect(created.status).toBe(201);
    const { id, token: secret } = (await created.json()) as { id: string; token: string };
    const bearer = { authorization: `Bearer ${secret}` };
    expect((await list(req("/api/components", { headers: bearer }))).status).toBe(200);
    expect((await list(req("/api/components", { headers: bearer }))).status).toBe(200);
    expect((await token.DELETE(req(`/api/tokens/${id}`, { method: "DELETE", headers: session }), byId(id))).status).toBe(200);
    const refused = await list(req("/api/components", { headers: bearer }));
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe("unauthenticated");
  });
});
