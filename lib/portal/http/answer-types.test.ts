// route() holds a handler to the answers it declares at compile time: `npm run typecheck` fails when an
// expected error below stops being one. The routes are built, never called.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { json, nonJson, route } from "./index";

const Thing = z.object({ name: z.string(), count: z.number().int() });

describe("a route's declared answers", () => {
  it("type the handler's json() (a wrong or missing field, an undeclared body or a bare Response does not compile)", () => {
    const routes = [
      route({ doc: { responses: { 200: { description: "a thing", schema: Thing } } }, handler: async () => json({ name: "a", count: 1 }) }),
      // @ts-expect-error count is a number
      route({ doc: { responses: { 200: { description: "a thing", schema: Thing } } }, handler: async () => json({ name: "a", count: "1" }) }),
      // @ts-expect-error count is missing
      route({ doc: { responses: { 200: { description: "a thing", schema: Thing } } }, handler: async () => json({ name: "a" }) }),
      // @ts-expect-error a Response that is not JSON says so (nonJson) and declares its content type
      route({ doc: { responses: { 200: { description: "a thing", schema: Thing } } }, handler: async () => new Response("x") }),
      route({ doc: { responses: { 200: { description: "a thing", schema: Thing }, 304: { description: "unchanged", noBody: true } } }, handler: async () => nonJson(new Response(null, { status: 304 })) }),
      // @ts-expect-error a JSON success answer declares its schema
      route({ doc: { responses: { 200: { description: "a thing" } } }, handler: async () => json({ name: "a", count: 1 }) }),
      // @ts-expect-error every route declares its answers
      route({ handler: async () => json({ name: "a", count: 1 }) }),
    ];
    expect(routes.every((r) => typeof r === "function")).toBe(true);
  });
});
