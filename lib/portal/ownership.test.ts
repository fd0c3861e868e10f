import { describe, expect, it } from "vitest";
import { isOwner, mayCommit } from "./ownership";

const component = { spec: { owners: [{ user: "alice" }, { user: "bob", group: "payments" }] } } as Parameters<typeof isOwner>[1];

describe("ownership", () => {
  it("names owners by user or by group", () => {
    expect(isOwner({ id: "alice", groups: [] }, component)).toBe(true);
    expect(isOwner({ id: "carol", groups: ["payments"] }, component)).toBe(true);
    expect(isOwner({ id: "carol", groups: ["growth"] }, component)).toBe(false);
  });

  it("lets operators and owners commit, and nobody else", () => {
    expect(mayCommit({ id: "carol", groups: [], roles: ["engineer", "operator"] }, component)).toBe(true);
    expect(mayCommit({ id: "carol", groups: [], roles: ["admin"] }, component)).toBe(true);
    expect(mayCommit({ id: "alice", groups: [], roles: ["engineer"] }, component)).toBe(true);
    expect(mayCommit({ id: "carol", groups: [], roles: ["engineer", "lead"] }, component)).toBe(false);
  });
});
