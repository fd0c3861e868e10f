import { describe, expect, it } from "vitest";
import { diffLines } from "./diff-lines";

describe("diffLines", () => {
  it("numbers old and new lines through a hunk, keeping comments as text", () => {
    const lines = diffLines("@@ -1,3 +1,3 @@\n # Settings\n-level: info # was\n+level: debug # now\n context\n\\ No newline at end of file\n");
    expect(lines).toEqual([
      { kind: "hunk", oldLine: null, newLine: null, text: "@@ -1,3 +1,3 @@" },
      { kind: "context", oldLine: 1, newLine: 1, text: "# Settings" },
      { kind: "del", oldLine: 2, newLine: null, text: "level: info # was" },
      { kind: "add", oldLine: null, newLine: 2, text: "level: debug # now" },
      { kind: "context", oldLine: 3, newLine: 3, text: "context" },
      { kind: "note", oldLine: null, newLine: null, text: "No newline at end of file" },
    ]);
  });

  it("starts a new file at line 1 and reads nothing from an empty diff", () => {
    expect(diffLines("@@ -0,0 +1,2 @@\n+a: 1\n+b: 2\n").filter((l) => l.kind === "add").map((l) => l.newLine)).toEqual([1, 2]);
    expect(diffLines("")).toEqual([]);
  });
});
