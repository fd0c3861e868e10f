/**
 * The logic of the Config tab (plain TypeScript, no React): current against persistent side by side
 * (drift), editing a flat map of typed values, the merge patch a save sends (null removes a key) and
 * the list of changes shown in the preview. Values: text, number or boolean (lib/portal/gitops/config-values.ts).
 */
import { CONFIG_KEY, MAX_KEYS, MAX_STRING, type ConfigPatch, type ConfigValue, type ConfigValues } from "@/lib/portal/gitops/config-values";

export type ValueType = "text" | "number" | "boolean";
export const VALUE_TYPES: ValueType[] = ["text", "number", "boolean"];

/** One key of the editor: text is what the input holds ("true"/"false" for booleans). */
export interface DraftEntry {
  id: string;
  key: string;
  type: ValueType;
  text: string;
}

export interface DraftIssue {
  /** The entry (or bulk row) it is about; "" for the whole draft. */
  id: string;
  field: "key" | "value" | "draft";
  message: string;
}

export interface Change {
  key: string;
  op: "add" | "change" | "remove";
  before?: ConfigValue;
  after?: ConfigValue;
}

export interface ComparedRow {
  key: string;
  current?: ConfigValue;
  persistent?: ConfigValue;
  /** The live value differs from the one in the config repository (or exists in one only). */
  drift: boolean;
}

export function typeOf(value: ConfigValue): ValueType {
  return typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "text";
}

export function textOf(value: ConfigValue): string {
  return String(value);
}

/** How a value reads in tables and previews: text quoted, numbers and booleans bare. */
export function formatValue(value: ConfigValue | undefined): string {
  if (value === undefined) return "—";
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

const count = (n: number) => n.toLocaleString("en-US");
/** The longest key CONFIG_KEY accepts. */
const MAX_KEY_LENGTH = 128;

/** A key or value as a message quotes it: a long one cut to its start, so the message stays readable. */
export function quoted(text: string, max = 40): string {
  return `"${text.length > max ? `${text.slice(0, max)}…` : text}"`;
}

/** The typed value, or what is wrong with it said after "The value of KEY" (a predicate: "is not a number"). */
export function parseValue(type: ValueType, text: string): { ok: true; value: ConfigValue } | { ok: false; message: string } {
  if (type === "boolean") {
    if (text === "true" || text === "false") return { ok: true, value: text === "true" };
    return { ok: false, message: "must be true or false" };
  }
  if (type === "number") {
    const t = text.trim();
    const n = Number(t);
    if (t === "" || !Number.isFinite(n)) return { ok: false, message: "is not a number" };
    if (losesDigits(t, n)) {
      return { ok: false, message: `cannot be kept exactly as a number: ${quoted(t)} would be saved as ${String(n)}. Choose type text to keep it as written` };
    }
    return { ok: true, value: n };
  }
  if (text.length > MAX_STRING) return { ok: false, message: `can be at most ${count(MAX_STRING)} characters; this one has ${count(text.length)}` };
  return { ok: true, value: text };
}

const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Whether a decimal text names a value a JavaScript number cannot hold exactly (99999999999999999999999
 * becomes 1e+23, 0.12345678901234567890 drops digits): its significant digits and magnitude are compared
 * with the shortest form of the number it parses to. Exponent notation that is exact (1.5e3) is fine;
 * non-decimal forms Number() accepts (0x10) are left alone.
 */
function losesDigits(text: string, n: number): boolean {
  const m = DECIMAL.exec(text);
  if (!m) return false;
  const [, int = "", frac = "", exp = "0"] = m;
  return significant(int + frac, int.length + Number(exp)) !== significantOf(n);
}

/** Digits without leading and trailing zeros, and where the decimal point falls relative to them ("" for zero). */
function significant(digits: string, point: number): string {
  const lead = digits.length - digits.replace(/^0+/, "").length;
  const core = digits.slice(lead).replace(/0+$/, "");
  return core === "" ? "" : `${core}@${point - lead}`;
}

function significantOf(n: number): string {
  // toExponential() without an argument gives the fewest digits that read back as the same number.
  const [mantissa, exp] = Math.abs(n).toExponential().split("e");
  return significant(mantissa.replace(".", ""), 1 + Number(exp));
}

let counter = 0;
export function newId(): string {
  counter += 1;
  return `e${counter}`;
}

export function draftFrom(values: ConfigValues): DraftEntry[] {
  return Object.entries(values).map(([key, value]) => ({ id: newId(), key, type: typeOf(value), text: textOf(value) }));
}

export function emptyEntry(): DraftEntry {
  return { id: newId(), key: "", type: "text", text: "" };
}

/** Why a key cannot be used, as a sentence (the rule in words, not as a pattern). */
function keyProblem(key: string): string {
  if (key === "") return "Every value needs a key: type one, or remove the row.";
  if (key.length > MAX_KEY_LENGTH) return `The key ${quoted(key)} has ${count(key.length)} characters; a key can have at most ${MAX_KEY_LENGTH}.`;
  return `The key ${quoted(key)} cannot be used: a key begins with a letter or an underscore, and holds only letters, digits, underscores, dots and hyphens.`;
}

/** The draft's values, or the problems that keep it from being saved (each naming the entry). A blank row (no key, no text) is ignored. */
export function valuesOf(entries: DraftEntry[]): { values: ConfigValues; issues: DraftIssue[] } {
  const values: ConfigValues = {};
  const issues: DraftIssue[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    const key = e.key.trim();
    if (key === "" && e.text === "") continue;
    if (!CONFIG_KEY.test(key)) {
      issues.push({ id: e.id, field: "key", message: keyProblem(key) });
      continue;
    }
    if (seen.has(key)) {
      issues.push({ id: e.id, field: "key", message: `The key ${quoted(key)} appears twice; each key can be set once.` });
      continue;
    }
    seen.add(key);
    const parsed = parseValue(e.type, e.text);
    if (!parsed.ok) issues.push({ id: e.id, field: "value", message: `The value of ${quoted(key)} ${parsed.message}.` });
    else values[key] = parsed.value;
  }
  if (seen.size > MAX_KEYS) issues.push({ id: "", field: "draft", message: `A config file can hold at most ${count(MAX_KEYS)} keys; this one has ${count(seen.size)}.` });
  return { values, issues };
}

/** The merge patch from base to next: changed and new keys set, removed keys null, the rest left out. */
export function patchOf(base: ConfigValues, next: ConfigValues): ConfigPatch {
  const patch: ConfigPatch = {};
  for (const [k, v] of Object.entries(next)) if (base[k] !== v) patch[k] = v;
  for (const k of Object.keys(base)) if (!(k in next)) patch[k] = null;
  return patch;
}

/** What a patch does to base, key by key (sorted). Keys the patch sets to their current value are left out. */
export function changesOf(base: ConfigValues, patch: ConfigPatch): Change[] {
  const out: Change[] = [];
  for (const key of Object.keys(patch).sort()) {
    const after = patch[key];
    const before = base[key];
    if (after === null) {
      if (key in base) out.push({ key, op: "remove", before });
    } else if (!(key in base)) out.push({ key, op: "add", after });
    else if (before !== after) out.push({ key, op: "change", before, after });
  }
  return out;
}

/** Current and persistent values of one environment side by side, keys sorted. */
export function compareViews(current: ConfigValues, persistent: ConfigValues): ComparedRow[] {
  const keys = [...new Set([...Object.keys(current), ...Object.keys(persistent)])].sort();
  return keys.map((key) => {
    const row: ComparedRow = { key, drift: current[key] !== persistent[key] };
    if (key in current) row.current = current[key];
    if (key in persistent) row.persistent = persistent[key];
    return row;
  });
}

/**
 * The bulk editor: one row per key, one cell per environment (null = the key is not set there).
 * A row's type applies to all its cells.
 */
export interface BulkRow {
  id: string;
  key: string;
  type: ValueType;
  cells: Record<string, string | null>;
}

export function bulkFrom(environments: string[], byEnvironment: Record<string, ConfigValues>): BulkRow[] {
  const keys = [...new Set(environments.flatMap((env) => Object.keys(byEnvironment[env] ?? {})))].sort();
  return keys.map((key) => {
    const cells: Record<string, string | null> = {};
    let type: ValueType | null = null;
    for (const env of environments) {
      const v = byEnvironment[env]?.[key];
      cells[env] = v === undefined ? null : textOf(v);
      if (v !== undefined && type === null) type = typeOf(v);
    }
    return { id: newId(), key, type: type ?? "text", cells };
  });
}

/** The bulk editor's updates: one per environment whose values change, and the problems found. */
export function bulkUpdates(
  environments: string[],
  byEnvironment: Record<string, ConfigValues>,
  rows: BulkRow[],
): { updates: Array<{ environment: string; values: ConfigPatch; changes: Change[] }>; issues: DraftIssue[] } {
  const issues: DraftIssue[] = [];
  const updates: Array<{ environment: string; values: ConfigPatch; changes: Change[] }> = [];
  const seenIssue = new Set<string>();
  for (const env of environments) {
    const entries = rows.filter((r) => r.cells[env] !== null && r.cells[env] !== undefined).map((r) => ({ id: r.id, key: r.key, type: r.type, text: r.cells[env] as string }));
    const { values, issues: envIssues } = valuesOf(entries);
    // Value problems name the environment; key problems are the same in every environment and show once.
    for (const i of envIssues) {
      const message = i.field === "value" ? `In ${env}, ${i.message.charAt(0).toLowerCase()}${i.message.slice(1)}` : i.message;
      if (!seenIssue.has(message)) {
        seenIssue.add(message);
        issues.push({ ...i, message });
      }
    }
    const base = byEnvironment[env] ?? {};
    const patch = patchOf(base, values);
    const changes = changesOf(base, patch);
    if (changes.length > 0) updates.push({ environment: env, values: patch, changes });
  }
  return { updates, issues };
}
