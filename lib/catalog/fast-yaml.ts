/**
 * A fast reader for the plain block-YAML subset component records are written in, so a cold load of
 * 10,000 files stays well under 2 s (the full `yaml` parser spends ~0.2–0.5 ms per small file here).
 *
 * It answers `undefined` — "not sure, use the full parser" — on anything outside the subset:
 * anchors, aliases, tags, block scalars, multi-line scalars, flow mappings, escapes, directives,
 * several documents, tabs, duplicate keys, odd indentation, and every plain scalar that could be a
 * number or another non-string type beyond null and booleans. Inside the subset its result equals
 * yaml's `parse` (YAML 1.2 core schema); a differential test checks that on every shipped record and
 * on generated ones. Errors are never produced here: the full parser reports them with positions.
 */

type Value = null | boolean | string | Value[] | { [key: string]: Value };

interface Line {
  indent: number;
  text: string; // content without indentation and without a trailing comment
}

const NULLS = new Set(["", "~", "null", "Null", "NULL"]);
const TRUES = new Set(["true", "True", "TRUE"]);
const FALSES = new Set(["false", "False", "FALSE"]);

/**
 * Whether `s` is one of the words above. Looking a fresh substring up in a set hashes it; almost no key or
 * value has the length of these words (0, 1, 4 or 5), so most never get that far.
 */
function isSpecialWord(s: string): boolean {
  const n = s.length;
  return (n <= 1 || n === 4 || n === 5) && (NULLS.has(s) || TRUES.has(s) || FALSES.has(s));
}
const KEY = /^[A-Za-z_][A-Za-z0-9_.\/-]*$/;
// Characters that may not start a plain scalar, or that make it something other than a string.
const UNSAFE_START = /^[-?:,\[\]{}#&*!|>'"%@`0-9+.~]/;

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};

/** Strips a comment; answers the content (trimmed at the end). Bails on quotes it cannot be sure of. */
function stripComment(s: string): string {
  // Most lines have neither a comment nor quotes: no need to walk them character by character.
  if (!s.includes("#") && !s.includes('"') && !s.includes("'")) return s.trimEnd();
  let quote: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === "\\" && quote === '"') bail();
      continue;
    }
    if (ch === '"' || ch === "'") {
      // Quotes only count at the start of a value; elsewhere they are part of a plain scalar.
      const before = s.slice(0, i).trimEnd();
      if (before === "" || before.endsWith(":") || before.endsWith("-") || before.endsWith("[") || before.endsWith(",")) quote = ch;
      continue;
    }
    if (ch === "#" && (i === 0 || s[i - 1] === " ")) return s.slice(0, i).trimEnd();
  }
  if (quote) bail();
  return s.trimEnd();
}

function scalar(raw: string): Value {
  const s = raw.trim();
  if (s === "") return null;
  if (s[0] === '"') {
    if (s.length < 2 || s[s.length - 1] !== '"') bail();
    const inner = s.slice(1, -1);
    if (inner.includes('"') || inner.includes("\\")) bail();
    return inner;
  }
  if (s[0] === "'") {
    if (s.length < 2 || s[s.length - 1] !== "'") bail();
    const inner = s.slice(1, -1);
    if (inner.replace(/''/g, "").includes("'")) bail();
    return inner.replace(/''/g, "'");
  }
  if (isSpecialWord(s)) {
    if (NULLS.has(s)) return null;
    return TRUES.has(s);
  }
  if (UNSAFE_START.test(s)) bail();
  if (s.includes(": ") || s.endsWith(":") || s.includes(" #") || s.includes("\t")) bail();
  return s;
}

function flowSeq(s: string): Value[] {
  // One-line [a, b, c] of plain or quoted scalars, nothing nested.
  if (!s.endsWith("]")) bail();
  const inner = s.slice(1, -1).trim();
  if (inner === "") return [];
  if (/[\[\]{}]/.test(inner)) bail();
  return inner.split(",").map((part) => {
    const p = part.trim();
    if (p === "") bail();
    const v = scalar(p);
    if (v === null && p !== "null") bail();
    return v;
  });
}

function inlineValue(s: string): Value {
  if (s.startsWith("[")) return flowSeq(s);
  if (s === "{}") return {};
  if (s.startsWith("{")) bail();
  return scalar(s);
}

export function fastParseYaml(text: string): unknown {
  if (text.includes("\t") || text.includes("\r") || text.charCodeAt(0) === 0xfeff) return undefined;
  const lines: Line[] = [];
  const rawLines = text.split("\n");
  for (let n = 0; n < rawLines.length; n++) {
    const raw = rawLines[n];
    let indent = 0;
    while (indent < raw.length && raw[indent] === " ") indent++;
    if (indent === raw.length) continue;
    if (raw[indent] === "#") continue;
    try {
      const content = stripComment(raw.slice(indent));
      if (content === "") continue;
      if (indent === 0 && (content.startsWith("---") || content.startsWith("...") || content.startsWith("%"))) return undefined;
      lines.push({ indent, text: content });
    } catch (e) {
      if (e instanceof Bail) return undefined;
      throw e;
    }
  }
  if (lines.length === 0) return undefined;
  let pos = 0;

  function block(indent: number): Value {
    const first = lines[pos];
    if (first.text === "-" || first.text.startsWith("- ")) return sequence(indent);
    return mapping(indent);
  }

  function mapping(indent: number, firstText?: string): Value {
    // A plain object (not a null-prototype one copied at the end): "__proto__" is refused below, and
    // duplicates are found with hasOwn, so inherited names such as "constructor" are ordinary keys.
    const out: Record<string, Value> = {};
    let text: string | undefined = firstText;
    for (;;) {
      if (text === undefined) {
        if (pos >= lines.length) break;
        const line = lines[pos];
        if (line.indent < indent) break;
        if (line.indent > indent) bail();
        text = line.text;
        pos++;
      }
      if (text === "-" || text.startsWith("- ")) bail();
      const colon = text.indexOf(":");
      if (colon <= 0) bail();
      const key = text.slice(0, colon);
      if (!KEY.test(key) || isSpecialWord(key) || key === "__proto__") bail();
      if (Object.hasOwn(out, key)) bail();
      const rest = text.slice(colon + 1);
      if (rest !== "" && rest[0] !== " ") bail();
      const value = rest.trim();
      if (value !== "") {
        out[key] = inlineValue(value);
        // A more indented line right after an inline value would be a multi-line scalar: not ours.
        if (pos < lines.length && lines[pos].indent > indent) bail();
      } else if (pos < lines.length && lines[pos].indent > indent) {
        out[key] = block(lines[pos].indent);
      } else if (pos < lines.length && lines[pos].indent === indent && (lines[pos].text === "-" || lines[pos].text.startsWith("- "))) {
        // "key:" followed by a sequence at the same indentation.
        out[key] = sequence(indent);
      } else {
        out[key] = null;
      }
      text = undefined;
    }
    return out;
  }

  function sequence(indent: number): Value[] {
    const out: Value[] = [];
    while (pos < lines.length) {
      const line = lines[pos];
      if (line.indent < indent) break;
      if (line.indent > indent) bail();
      if (!(line.text === "-" || line.text.startsWith("- "))) break;
      pos++;
      const rest = line.text === "-" ? "" : line.text.slice(2);
      const trimmed = rest.trimStart();
      const childIndent = indent + 2 + (rest.length - trimmed.length);
      if (trimmed === "") {
        if (pos < lines.length && lines[pos].indent > indent) out.push(block(lines[pos].indent));
        else out.push(null);
      } else if (trimmed.startsWith("- ") || trimmed === "-") {
        bail();
      } else if (/^[A-Za-z_][A-Za-z0-9_.\/-]*:( |$)/.test(trimmed)) {
        // "- key: value" opens a mapping whose keys sit at childIndent.
        out.push(mapping(childIndent, trimmed));
      } else {
        out.push(inlineValue(trimmed));
        if (pos < lines.length && lines[pos].indent > indent) bail();
      }
    }
    return out;
  }

  try {
    if (lines[0].indent !== 0) return undefined;
    const result = block(0);
    if (pos !== lines.length) return undefined;
    return result;
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  }
}
