import { describe, expect, it } from "vitest";
import { checkId } from "./address-ids";

describe("ids in portal addresses", () => {
  it("takes an id as Next passes it, decoded or percent-encoded", () => {
    expect(checkId("offer.2026")).toBe("offer.2026");
    expect(checkId("team|spring")).toBe("team|spring");
    expect(checkId("team%7Cspring")).toBe("team|spring");
    expect(checkId("a%40b%2Bc%3Dd")).toBe("a@b+c=d");
  });

  it("refuses what cannot be an id, and a malformed encoding, without throwing", () => {
    expect(checkId("player%20one")).toBeNull();
    expect(checkId("%3Cscript%3E")).toBeNull();
    expect(checkId("%E0%A4%A")).toBeNull();
    expect(checkId("")).toBeNull();
    expect(checkId("x".repeat(201))).toBeNull();
    expect(checkId("x".repeat(200))).toBe("x".repeat(200));
  });
});
