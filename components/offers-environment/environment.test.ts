import { describe, expect, it } from "vitest";
import { apiUrl, environmentFromParam, pageHref, titleIn } from "./environment";

describe("the environment in the offers pages' addresses", () => {
  it("is test only when env says test; absent, live or anything else is live", () => {
    expect(environmentFromParam("test")).toBe("test");
    expect(environmentFromParam(["test", "live"])).toBe("test");
    expect(environmentFromParam(undefined)).toBe("live");
    expect(environmentFromParam(null)).toBe("live");
    expect(environmentFromParam("live")).toBe("live");
    expect(environmentFromParam("TEST")).toBe("live");
  });

  it("keeps test on a page link beside its own query and fragment; live carries no env", () => {
    expect(pageHref("/live-ops/demo-game", "test")).toBe("/live-ops/demo-game?env=test");
    expect(pageHref("/offers?game=demo-game&q=cleo", "test")).toBe("/offers?game=demo-game&q=cleo&env=test");
    expect(pageHref("/offers?env=test#top", "test")).toBe("/offers?env=test#top");
    expect(pageHref("/live-ops/demo-game", "live")).toBe("/live-ops/demo-game");
    expect(pageHref("/offers?game=demo-game&env=test", "live")).toBe("/offers?game=demo-game");
    expect(pageHref("/offers?env=test", "live")).toBe("/offers");
  });

  it("names the environment on every API call, live included", () => {
    expect(apiUrl("/api/offers/games", "live")).toBe("/api/offers/games?environment=live");
    expect(apiUrl("/api/offers/games/g/players", "test", { q: "cleo", limit: "25" })).toBe("/api/offers/games/g/players?q=cleo&limit=25&environment=test");
  });

  it("says test in the page title", () => {
    expect(titleIn("Live ops", "test")).toBe("Test · Live ops");
    expect(titleIn("Live ops", "live")).toBe("Live ops");
  });
});
