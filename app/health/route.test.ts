import { afterAll, describe, expect, it, vi } from "vitest";

// A PostgreSQL URL where nothing listens: the portal database is down.
vi.stubEnv("PORTAL_DATABASE_URL", "postgres://portal@127.0.0.1:1/portal");

// Other test files may run in this worker after this one.
afterAll(() => vi.unstubAllEnvs());

const { GET } = await import("./route");

describe("GET /health", () => {
  it("answers 503 with a clear body when the portal database is down", async () => {
    const response = await GET();
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: "unavailable", database: "down", message: expect.stringContaining("portal database unavailable") });
  });
});
