import { describe, expect, it } from "vitest";
import { applyPatch } from "@/lib/portal/gitops/config-values";
import { bulkFrom, bulkUpdates, changesOf, compareViews, draftFrom, emptyEntry, formatValue, parseValue, patchOf, valuesOf, type DraftEntry } from "./config-edit";

const entry = (key: string, type: DraftEntry["type"], text: string): DraftEntry => ({ ...emptyEntry(), key, type, text });

describe("config editing", () => {
  it("parses typed values", () => {
    expect(parseValue("number", " 42 ")).toEqual({ ok: true, value: 42 });
    expect(parseValue("number", "1.5e3")).toEqual({ ok: true, value: 1500 });
    expect(parseValue("number", "")).toMatchObject({ ok: false });
    expect(parseValue("number", "12abc")).toMatchObject({ ok: false });
    expect(parseValue("number", "Infinity")).toMatchObject({ ok: false });
  });

  it("refuses numbers that would not be saved as written, and keeps them as text when the type is text", () => {
    expect(parseValue("number", "99999999999999999999999")).toEqual({
      ok: false,
      message: 'cannot be kept exactly as a number: "99999999999999999999999" would be saved as 1e+23. Choose type text to keep it as written',
    });
    expect(parseValue("number", "9007199254740993")).toMatchObject({ ok: false });
    expect(parseValue("number", "0.12345678901234567890")).toMatchObject({ ok: false });
    // The bulk editor names the field (and the environment) with the refusal.
    const { issues } = bulkUpdates(["dev"], { dev: {} }, [{ id: "r1", key: "BIG", type: "number", cells: { dev: "99999999999999999999999" } }]);
    expect(issues.map((i) => i.message)).toEqual([expect.stringMatching(/^In dev, the value of "BIG" cannot be kept exactly/)]);
    expect(parseValue("text", "99999999999999999999999")).toEqual({ ok: true, value: "99999999999999999999999" });
    // Exact values pass however they are written: zeros, signs, exponents, the largest safe integer.
    for (const [text, value] of [
      ["9007199254740991", Number.MAX_SAFE_INTEGER],
      ["-0.50", -0.5],
      ["007", 7],
      ["0.000", 0],
      ["1e+23", 1e23],
      ["2.5E-7", 2.5e-7],
      [".5", 0.5],
      ["5.", 5],
      ["0.1", 0.1],
      ["1200", 1200],
      ["0x10", 16],
    ] as const) {
      expect(parseValue("number", text)).toEqual({ ok: true, value });
    }
    // What the editor shows for a stored number always reads back as that number.
    for (const n of [1e21, 1e-7, 0.30000000000000004, -123.456, Number.MAX_VALUE, Number.MIN_VALUE]) expect(parseValue("number", String(n))).toEqual({ ok: true, value: n });
    expect(parseValue("boolean", "true")).toEqual({ ok: true, value: true });
    expect(parseValue("boolean", "yes")).toMatchObject({ ok: false });
    // Text stays text, even when it looks like a number.
    expect(parseValue("text", "8080")).toEqual({ ok: true, value: "8080" });
    expect(parseValue("text", "")).toEqual({ ok: true, value: "" });
    expect(parseValue("text", "x".repeat(4097))).toMatchObject({ ok: false });
  });

  it("round-trips values through the draft, keeping types", () => {
    const values = { LOG_LEVEL: "info", WORKERS: 4, FEATURE_X: true, PORT: "8080" };
    const draft = draftFrom(values);
    expect(draft.map((e) => [e.key, e.type, e.text])).toEqual([
      ["LOG_LEVEL", "text", "info"],
      ["WORKERS", "number", "4"],
      ["FEATURE_X", "boolean", "true"],
      ["PORT", "text", "8080"],
    ]);
    expect(new Set(draft.map((e) => e.id)).size).toBe(4);
    expect(valuesOf(draft)).toEqual({ values, issues: [] });
  });

  it("reports bad keys, duplicates and bad values against their entries", () => {
    const a = entry("1BAD", "text", "x");
    const b = entry("OK", "number", "nope");
    const c = entry("OK2", "text", "a");
    const d = entry("OK2", "text", "b");
    const e = entry("  ", "text", "a value");
    const blank = entry("", "text", "");
    const { values, issues } = valuesOf([a, b, c, d, e, blank]);
    expect(values).toEqual({ OK2: "a" });
    expect(issues).toEqual([
      { id: a.id, field: "key", message: expect.stringContaining('"1BAD"') },
      { id: b.id, field: "value", message: 'The value of "OK" is not a number.' },
      { id: d.id, field: "key", message: 'The key "OK2" appears twice; each key can be set once.' },
      { id: e.id, field: "key", message: "Every value needs a key: type one, or remove the row." },
    ]);
  });

  it("trims keys", () => {
    expect(valuesOf([entry(" LOG_LEVEL ", "text", "debug")]).values).toEqual({ LOG_LEVEL: "debug" });
  });

  it("builds the merge patch: changed and new keys set, removed keys null, the rest left out", () => {
    const base = { A: "1", B: 2, C: true, D: "same" };
    const next = { A: "one", B: 2, D: "same", E: false };
    const patch = patchOf(base, next);
    expect(patch).toEqual({ A: "one", C: null, E: false });
    // Applying it on the server gives exactly the edited values.
    expect(applyPatch(base, patch)).toEqual(next);
    expect(patchOf(base, { ...base })).toEqual({});
  });

  it("a type change is a change (2 → \"2\")", () => {
    expect(patchOf({ N: 2 }, { N: "2" })).toEqual({ N: "2" });
    expect(changesOf({ N: 2 }, { N: "2" })).toEqual([{ key: "N", op: "change", before: 2, after: "2" }]);
  });

  it("lists the changes of a patch, sorted, without no-ops", () => {
    const base = { A: "1", B: 2, C: true };
    expect(changesOf(base, { C: null, A: "one", Z: 1, B: 2, GONE: null })).toEqual([
      { key: "A", op: "change", before: "1", after: "one" },
      { key: "C", op: "remove", before: true },
      { key: "Z", op: "add", after: 1 },
    ]);
  });

  it("compares current and persistent values, marking drift", () => {
    expect(compareViews({ A: "1", B: 2, LIVE_ONLY: true }, { A: "1", B: 3, REPO_ONLY: "x" })).toEqual([
      { key: "A", current: "1", persistent: "1", drift: false },
      { key: "B", current: 2, persistent: 3, drift: true },
      { key: "LIVE_ONLY", current: true, drift: true },
      { key: "REPO_ONLY", persistent: "x", drift: true },
    ]);
    expect(compareViews({}, {})).toEqual([]);
  });

  it("formats values for tables and previews", () => {
    expect(formatValue("info")).toBe('"info"');
    expect(formatValue("")).toBe('""');
    expect(formatValue(4)).toBe("4");
    expect(formatValue(false)).toBe("false");
    expect(formatValue(undefined)).toBe("—");
  });
});

describe("bulk editing", () => {
  const envs = ["dev", "staging", "production"];
  const byEnv = { dev: { LOG_LEVEL: "debug", WORKERS: 1 }, staging: { LOG_LEVEL: "info" }, production: {} };

  it("has one row per key and one cell per environment (null = not set)", () => {
    const rows = bulkFrom(envs, byEnv);
    expect(rows.map((r) => [r.key, r.type, r.cells])).toEqual([
      ["LOG_LEVEL", "text", { dev: "debug", staging: "info", production: null }],
      ["WORKERS", "number", { dev: "1", staging: null, production: null }],
    ]);
    expect(bulkUpdates(envs, byEnv, rows)).toEqual({ updates: [], issues: [] });
  });

  it("answers one update per environment that changes", () => {
    const rows = bulkFrom(envs, byEnv);
    rows[0].cells.production = "warn";
    rows[0].cells.dev = null;
    rows[1].cells.staging = "2";
    const { updates, issues } = bulkUpdates(envs, byEnv, rows);
    expect(issues).toEqual([]);
    expect(updates.map((u) => [u.environment, u.values])).toEqual([
      ["dev", { LOG_LEVEL: null }],
      ["staging", { WORKERS: 2 }],
      ["production", { LOG_LEVEL: "warn" }],
    ]);
    expect(updates[2].changes).toEqual([{ key: "LOG_LEVEL", op: "add", after: "warn" }]);
  });

  it("a removed row removes the key everywhere; a renamed row moves it", () => {
    const rows = bulkFrom(envs, byEnv);
    rows[1].key = "THREADS";
    const { updates } = bulkUpdates(envs, byEnv, rows.slice(1));
    expect(updates.map((u) => [u.environment, u.values])).toEqual([
      ["dev", { THREADS: 1, LOG_LEVEL: null, WORKERS: null }],
      ["staging", { LOG_LEVEL: null }],
    ]);
  });

  it("names the environment of a bad value and reports a bad key once", () => {
    const rows = bulkFrom(envs, byEnv);
    rows[1].cells.production = "lots";
    rows.push({ id: "x", key: "9lives", type: "text", cells: { dev: "a", staging: "b", production: null } });
    const { issues } = bulkUpdates(envs, byEnv, rows);
    expect(issues.map((i) => i.message)).toEqual([expect.stringContaining('"9lives"'), 'In production, the value of "WORKERS" is not a number.']);
  });
});
