/**
 * A fast reader for the plain block-YAML subset component records are written in, so a cold load of
 * 100,000 files stays under 5 s (the full `yaml` parser spends ~0.2–0.5 ms per small file here).
 *
 * It answers `undefined` — "not sure, use the full parser" — on anything outside the subset:
 * anchors, aliases, tags, block scalars, multi-line scalars, flow mappings, escapes, directives,
 * several documents, tabs, duplicate keys, odd indentation, whitespace other than the space, and every
 * plain scalar that could be a number or another non-string type beyond null and booleans. Inside the
 * subset its result equals yaml's `parse` (YAML 1.2 core schema); a differential test checks that on
 * every shipped record, on generated ones and on random documents. Errors are never produced here: the
 * full parser reports them with positions.
 *
 * The text is read in place: each line is a range of it (indentation, content start and end), and only
 * keys and values become strings. A cold load reads one file after another, so a file's line ranges
 * go into arrays reused from one file to the next.
 */

type Value = null | boolean | string | Value[] | { [key: string]: Value };

/**
 * Whether `s` is a word the core schema reads as null or a boolean rather than a string (its length
 * first: almost no key or value has the length of one of them). Compared to each word, not looked up
 * in a set: a set hashes every fresh substring it is asked about.
 */
function isSpecialWord(s: string): boolean {
  switch (s.length) {
    case 0:
      return true;
    case 1:
      return s === "~";
    case 4:
      return isNullWord(s) || s === "true" || s === "True" || s === "TRUE";
    case 5:
      return s === "false" || s === "False" || s === "FALSE";
    default:
      return false;
  }
}

/** For a special word: whether it is one of null's. */
function isNullWord(s: string): boolean {
  return s === "" || s === "~" || s === "null" || s === "Null" || s === "NULL";
}

// Characters that may not start a plain scalar, or that make it something other than a string.
const UNSAFE_START = /^[-?:,\[\]{}#&*!|>'"%@`0-9+.~]/;
/**
 * Control characters other than the line feed, and the whitespace JavaScript trims: left to the full
 * parser, which reads most of them as content (a no-break space after "key: " is part of the value) and
 * tab and carriage return as whitespace. Trimming here then only ever means spaces.
 */
const ODD_CHARACTER = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/;

const SPACE = 0x20;
const HASH = 0x23;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;
const DASH = 0x2d;
const COLON = 0x3a;

/** Whether a key's character (`first`: its first) may stand in a key of the subset: [A-Za-z_][A-Za-z0-9_./-]*. */
function isKeyChar(c: number, first: boolean): boolean {
  if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f) return true;
  return !first && ((c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2f || c === DASH);
}

class Bail extends Error {}
const bail = (): never => {
  throw new Bail();
};

/** Line ranges of the file being read (indentation, content start, content end), reused from file to file. */
let indents = new Int32Array(0);
let starts = new Int32Array(0);
let ends = new Int32Array(0);
const MAX_KEPT_LINES = 4096;

function grow(): void {
  const more = (a: Int32Array) => {
    const b = new Int32Array(Math.max(256, a.length * 2));
    b.set(a);
    return b;
  };
  indents = more(indents);
  starts = more(starts);
  ends = more(ends);
}

/**
 * The end of a line's content with its comment stripped (spaces before it too), for a line holding a
 * "#" or a quote. Bails on quotes it cannot be sure of. Quotes only count at the start of a value:
 * elsewhere they are part of a plain scalar.
 */
function contentEnd(text: string, start: number, end: number): number {
  let quote = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === quote) quote = 0;
      else if (c === 0x5c && quote === QUOTE) bail();
      continue;
    }
    if (c === QUOTE || c === APOSTROPHE) {
      let b = i - 1;
      while (b >= start && text.charCodeAt(b) === SPACE) b--;
      const before = b < start ? -1 : text.charCodeAt(b);
      if (before === -1 || before === COLON || before === DASH || before === 0x5b || before === 0x2c) quote = c;
      continue;
    }
    if (c === HASH && (i === start || text.charCodeAt(i - 1) === SPACE)) return trimEnd(text, start, i);
  }
  if (quote) bail();
  return trimEnd(text, start, end);
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && text.charCodeAt(end - 1) === SPACE) end--;
  return end;
}

function scalar(s: string): Value {
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
    if (isNullWord(s)) return null;
    return s.charCodeAt(0) === 0x74 || s.charCodeAt(0) === 0x54;
  }
  if (UNSAFE_START.test(s)) bail();
  if (s.includes(": ") || s.endsWith(":") || s.includes(" #")) bail();
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

/** The value after "key: " or "- ", as a string without spaces around it. */
function inlineValue(s: string): Value {
  if (s.startsWith("[")) return flowSeq(s);
  if (s === "{}") return {};
  if (s.startsWith("{")) bail();
  return scalar(s);
}

/** One file's reading: recursive descent over its line ranges, `pos` the next line. */
class Reader {
  pos = 0;

  constructor(
    private readonly text: string,
    private readonly lines: number,
    private readonly bytes: Buffer | undefined,
  ) {}

  /**
   * A value's text. A substring of 13 characters or more keeps the whole text it was cut from alive (V8
   * makes it a slice of it); copied from the bytes, a value kept by the catalog holds only itself.
   */
  private valueText(start: number, end: number): string {
    return this.bytes ? this.bytes.toString("latin1", start, end) : this.text.slice(start, end);
  }

  /** Whether content from `at` to `end` is a sequence entry: "-" alone or "- " and more. */
  private isEntry(at: number, end: number): boolean {
    return this.text.charCodeAt(at) === DASH && (at + 1 === end || this.text.charCodeAt(at + 1) === SPACE);
  }

  /** Whether the next line exists and is indented deeper than `indent`. */
  private deeper(indent: number): boolean {
    return this.pos < this.lines && indents[this.pos] > indent;
  }

  block(indent: number): Value {
    return this.isEntry(starts[this.pos], ends[this.pos]) ? this.sequence(indent) : this.mapping(indent, -1, -1);
  }

  /** A mapping whose keys sit at `indent`; its first entry is `from`..`to` when given (after "- "), else the next line. */
  mapping(indent: number, from: number, to: number): Value {
    // A plain object (not a null-prototype one copied at the end): "__proto__" is refused below, and
    // duplicates are found with hasOwn, so inherited names such as "constructor" are ordinary keys.
    const out: Record<string, Value> = {};
    const text = this.text;
    let start = from;
    let end = to;
    for (;;) {
      if (start < 0) {
        if (this.pos >= this.lines) break;
        const line = this.pos;
        if (indents[line] < indent) break;
        if (indents[line] > indent) bail();
        start = starts[line];
        end = ends[line];
        this.pos++;
      }
      if (this.isEntry(start, end)) bail();
      if (!isKeyChar(text.charCodeAt(start), true)) bail();
      let colon = start + 1;
      while (colon < end && isKeyChar(text.charCodeAt(colon), false)) colon++;
      if (colon === end || text.charCodeAt(colon) !== COLON) bail();
      const key = text.slice(start, colon);
      if (isSpecialWord(key) || key === "__proto__" || Object.hasOwn(out, key)) bail();
      let at = colon + 1;
      if (at < end && text.charCodeAt(at) !== SPACE) bail();
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      if (at < end) {
        out[key] = inlineValue(this.valueText(at, end));
        // A more indented line right after an inline value would be a multi-line scalar: not ours.
        if (this.deeper(indent)) bail();
      } else if (this.deeper(indent)) {
        out[key] = this.block(indents[this.pos]);
      } else if (this.pos < this.lines && indents[this.pos] === indent && this.isEntry(starts[this.pos], ends[this.pos])) {
        // "key:" followed by a sequence at the same indentation.
        out[key] = this.sequence(indent);
      } else {
        out[key] = null;
      }
      start = -1;
    }
    return out;
  }

  sequence(indent: number): Value[] {
    const out: Value[] = [];
    const text = this.text;
    while (this.pos < this.lines) {
      const line = this.pos;
      if (indents[line] < indent) break;
      if (indents[line] > indent) bail();
      const start = starts[line];
      const end = ends[line];
      if (!this.isEntry(start, end)) break;
      this.pos++;
      let at = start + 1;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      if (at === end) {
        out.push(this.deeper(indent) ? this.block(indents[this.pos]) : null);
      } else if (this.isEntry(at, end)) {
        bail();
      } else if (this.opensMapping(at, end)) {
        // "- key: value" opens a mapping whose keys sit where that key starts.
        out.push(this.mapping(indent + (at - start), at, end));
      } else {
        out.push(inlineValue(this.valueText(at, end)));
        if (this.deeper(indent)) bail();
      }
    }
    return out;
  }

  /** Whether content from `at` starts with a key and a colon followed by a space or nothing. */
  private opensMapping(at: number, end: number): boolean {
    const text = this.text;
    if (!isKeyChar(text.charCodeAt(at), true)) return false;
    let i = at + 1;
    while (i < end && isKeyChar(text.charCodeAt(i), false)) i++;
    return i < end && text.charCodeAt(i) === COLON && (i + 1 === end || text.charCodeAt(i + 1) === SPACE);
  }
}

/**
 * `text` read as a records file; `ascii`, when given, is the same text as bytes, one per character (a
 * file with no character past ASCII).
 */
export function fastParseYaml(text: string, ascii?: Buffer): unknown {
  if (ODD_CHARACTER.test(text)) return undefined;
  let lines = 0;
  try {
    for (let lineStart = 0; lineStart < text.length; ) {
      let lineEnd = text.indexOf("\n", lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      let start = lineStart;
      while (start < lineEnd && text.charCodeAt(start) === SPACE) start++;
      const next = lineEnd + 1;
      // Blank lines and whole-line comments are not content.
      if (start === lineEnd || text.charCodeAt(start) === HASH) {
        lineStart = next;
        continue;
      }
      let end = lineEnd;
      for (let i = start; i < lineEnd; i++) {
        const c = text.charCodeAt(i);
        if (c === HASH || c === QUOTE || c === APOSTROPHE) {
          end = contentEnd(text, start, lineEnd);
          break;
        }
      }
      end = trimEnd(text, start, end);
      if (end === start) {
        lineStart = next;
        continue;
      }
      const indent = start - lineStart;
      // Directives and document markers: several documents, or a header, are the full parser's.
      if (indent === 0) {
        const c = text.charCodeAt(start);
        if (c === 0x25 || text.startsWith("---", start) || text.startsWith("...", start)) return undefined;
      }
      if (lines === indents.length) grow();
      indents[lines] = indent;
      starts[lines] = start;
      ends[lines] = end;
      lines++;
      lineStart = next;
    }
    if (lines === 0 || indents[0] !== 0) return undefined;
    const reader = new Reader(text, lines, ascii);
    const result = reader.block(0);
    return reader.pos === lines ? result : undefined;
  } catch (e) {
    if (e instanceof Bail) return undefined;
    throw e;
  } finally {
    // A huge file does not keep its line ranges' arrays.
    if (indents.length > MAX_KEPT_LINES) {
      indents = new Int32Array(0);
      starts = new Int32Array(0);
      ends = new Int32Array(0);
    }
  }
}
