import Fastify from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { inputPlugin } from "./input";

const Reward = z.object({ type: z.string(), amount: z.number().int() });
const Body = z.object({ message: z.string(), rewards: z.array(Reward), note: z.string().nullable(), extra: z.record(z.string(), z.number()).optional() });

/** One route answering whatever the test hands it, documented with Body. */
async function appAnswering(answer: () => unknown, checkResponses: boolean) {
  const app = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  await app.register(inputPlugin, { checkResponses });
  app.get("/answer", { schema: { response: { 200: Body } } }, async () => answer() as z.infer<typeof Body>);
  await app.ready();
  return app;
}

describe("success bodies", () => {
  const apps: Array<{ close(): Promise<unknown> }> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    vi.restoreAllMocks();
  });

  const good = { message: "Rewards claimed", rewards: [{ type: "gold", amount: 5 }], note: null, extra: { a: 1 } };

  it("are written with the documented fields only, whatever else the handler's object carries", async () => {
    for (const check of [false, true]) {
      const app = await appAnswering(() => ({ ...good, internalSecret: "s3cret", rewards: [{ type: "gold", amount: 5, cost: 9 }] }), check);
      apps.push(app);
      const response = await app.inject({ method: "GET", url: "/answer" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(good);
      expect(response.body).not.toContain("s3cret");
    }
  });

  it("that break their schema fail the request when responses are checked (tests), naming the route", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const app = await appAnswering(() => ({ ...good, rewards: [{ type: "gold", amount: 1.5 }] }), true);
    apps.push(app);
    const response = await app.inject({ method: "GET", url: "/answer" });
    expect(response.statusCode).toBe(500);
    const missing = await appAnswering(() => ({ rewards: [], note: null }), true);
    apps.push(missing);
    expect((await missing.inject({ method: "GET", url: "/answer" })).statusCode).toBe(500);
    expect(logged).not.toHaveBeenCalledWith(expect.stringContaining("fast serializer"));
  });

  it("keep strings with quotes, line breaks and non-ASCII text intact", async () => {
    const text = { ...good, message: 'He said "hi"\n\u2028 — ünïcødé 🎁 \\ end' };
    const app = await appAnswering(() => text, false);
    apps.push(app);
    expect((await app.inject({ method: "GET", url: "/answer" })).json()).toEqual(text);
  });
});
