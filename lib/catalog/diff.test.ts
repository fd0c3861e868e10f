import { describe, expect, it } from "vitest";
import { hasChanges, lineDiff } from "./diff";

describe("lineDiff", () => {
  it("shows removed lines before added ones, with context", () => {
    expect(lineDiff("a\nb\nc", "a\nB\nc")).toEqual([
      { op: " ", text: "a" },
      { op: "-", text: "b" },
      { op: "+", text: "B" },
      { op: " ", text: "c" },
    ]);
  });
  it("reports no changes for equal texts", () => {
    expect(hasChanges(lineDiff("x\ny\n", "x\ny\n"))).toBe(false);
    expect(hasChanges(lineDiff("x", "x\ny"))).toBe(true);
  });
});
