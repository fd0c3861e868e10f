/**
 * The SDK's environments against a listening offers service: the test credentials reach the game's
 * test environment (its own players), a base URL per environment is honoured, and a credential of
 * the other environment is refused when the client is made.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOffersTestApp, type OffersTestContext } from "@/test-support/offers/test-app";
import { baseUrlOf, createServerClient } from "./index";

describe("SDK environments", () => {
  let t: OffersTestContext;
  let baseUrl: string;

  beforeAll(async () => {
    t = await startOffersTestApp("pglite");
    baseUrl = `${await t.app.listen({ port: 0, host: "127.0.0.1" })}/v1`;
  });
  afterAll(async () => t?.close());

  it("reaches the environment of its credentials: the same player id is two players", async () => {
    const live = createServerClient({ baseUrl, clientId: t.game.clientId, apiKey: t.game.apiKey });
    const test = createServerClient({ environment: "test", baseUrl: { live: "http://127.0.0.1:9/v1", test: baseUrl }, clientId: t.testGame.clientId, apiKey: t.testGame.apiKey });
    await live.pushSnapshot({ playerId: "same", username: "In live" });
    await test.pushSnapshot({ playerId: "same", username: "In test" });
    expect((await live.refreshCampaigns({ playerId: "same" })).playerSnapshot.username).toBe("In live");
    expect((await test.refreshCampaigns({ playerId: "same" })).playerSnapshot.username).toBe("In test");
  });

  it("refuses a credential that names the other environment, and picks the base URL of its own", () => {
    expect(() => createServerClient({ baseUrl, clientId: "cl_test_x", apiKey: "ok_test_secret" })).toThrow(/a test credential in a live client/);
    expect(() => createServerClient({ environment: "test", baseUrl, clientId: "cl_live_x", apiKey: "ok_live_secret" })).toThrow(/a live credential in a test client/);
    expect(baseUrlOf({ environment: "test", baseUrl: { live: "https://a/v1", test: "https://b/v1" } })).toBe("https://b/v1");
    expect(baseUrlOf({ baseUrl: "https://a/v1" })).toBe("https://a/v1");
  });
});
