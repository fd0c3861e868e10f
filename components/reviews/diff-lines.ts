/** Unified diff hunks (as git prints them, from the first "@@") as numbered lines for display. Pure. */
export interface DiffLine {
  kind: "hunk" | "add" | "del" | "context" | "note";
  oldLine: number | null;
  newLine: number | null;
  text: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function diffLines(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  const lines = diff.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      out.push({ kind: "hunk", oldLine: null, newLine: null, text: line });
    } else if (line.startsWith("+")) {
      out.push({ kind: "add", oldLine: null, newLine: newLine++, text: line.slice(1) });
    } else if (line.startsWith("-")) {
      out.push({ kind: "del", oldLine: oldLine++, newLine: null, text: line.slice(1) });
    } else if (line.startsWith("\\")) {
      out.push({ kind: "note", oldLine: null, newLine: null, text: line.slice(2) });
    } else {
      out.push({ kind: "context", oldLine: oldLine++, newLine: newLine++, text: line.slice(1) });
    }
  }
  return out;
}
