// Unknown /api paths: the catch-all route answers a JSON 404 for every method (no sign-in needed).
import { describe, expect, it } from "vitest";
import * as unknownRoute from "./route";

const ctx = (params: Record<string, string | string[]> = {}) => ({ params: Promise.resolve(params) });

describe("unknown /api paths", () => {
  it("answer a JSON 404 not-found for every method", async () => {
    const unknown = unknownRoute as unknown as Record<string, (r: Request, c: unknown) => Promise<Response>>;
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]) {
      const response = await unknown[method]!(new Request("http://portal.test/api/nope/deeper", { method }), ctx({ path: ["nope", "deeper"] }));
      expect(response.status, method).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      if (method !== "HEAD") expect(await response.json()).toEqual({ message: "not-found", detail: `no API endpoint ${method} /api/nope/deeper` });
    }
  });
});
