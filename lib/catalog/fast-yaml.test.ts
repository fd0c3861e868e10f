import fc from "fast-check";
import { fuzzParameters, fuzzRuns } from "@/test-support/fuzz";
import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";
import { fastParseYaml } from "./fast-yaml";
import { generateComponent } from "../../bench/catalog/generate";
import { validComponent } from "@/test-support/catalog/temp-catalog";

function full(text: string): unknown {
  try {
    return parse(text, { uniqueKeys: true, strict: true, maxAliasCount: 100 });
  } catch {
    return Symbol.for("error");
  }
}

/**
 * Either the fast reader declines, or it agrees with the full parser; read from the text alone and with
 * the text's bytes (when it is ASCII) alike.
 */
function agrees(text: string): "fast" | "declined" {
  const fast = fastParseYaml(text);
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length === text.length) expect(fastParseYaml(text, bytes), text).toEqual(fast);
  if (fast === undefined) return "declined";
  expect(fast, text).toEqual(full(text));
  return "fast";
}

/**
 * Random documents line by line: mostly what records hold (keys, entries, nesting by two), sometimes what
 * the reader must decline (odd indentation, keys and values outside its subset, other whitespace).
 */
const oneOf = <T>(usual: T[], odd: T[]) => fc.oneof({ arbitrary: fc.constantFrom(...usual), weight: 9 }, { arbitrary: fc.constantFrom(...odd), weight: 1 });
const keyPart = oneOf(["a", "name", "spec", "x_y", "a.b", "a/b", "k-1", "constructor"], ["true", "null", "~", "1a", "__proto__", "a b", "-a", ""]);
const valuePart = oneOf(
  ["", "plain", "two words", "org/team-1/some-long-repository-name", "Café ünïcode", "a#b", "'it''s'", "'x # y'", '"quoted"', "[a, b]", "[]", "{}", "True", "NULL", "~", "a-b"],
  ["x: y", "x:", "a #b", '"bad \\ escape"', "'open", "[a, [b]]", "{a: b}", "- x", "-", "1", "0x1F", ".5", "yes", "&anchor x", "*alias", "!!str x", "|", ">", "%x", "@x", "`x", "a\u00a0b", "tab\there", "end\u2028", "bell\u0007", "del\u007f", "---", "..."],
);
const line = fc.record({
  /** Deeper by one, back out by one or two, or the same as the line before. */
  step: fc.constantFrom(0, 0, 1, 1, -1, -2),
  oddIndent: fc.oneof({ arbitrary: fc.constant(0), weight: 19 }, { arbitrary: fc.constantFrom(1, -1, 3), weight: 1 }),
  shape: oneOf(["key", "key", "nested", "entry", "entry-key"], ["comment", "blank", "bare"]),
  key: keyPart,
  value: valuePart,
  tail: oneOf(["", "", " # note"], ["  ", "#x"]),
});
type LineParts = { step: number; oddIndent: number; shape: string; key: string; value: string; tail: string };
const documentText = (lines: LineParts[]) => {
  let depth = 0;
  return lines.map((l, i) => lineText((depth = i === 0 ? 0 : Math.max(0, Math.min(3, depth + l.step))), l)).join("\n");
};
const lineText = (depth: number, { oddIndent, shape, key, value, tail }: LineParts) => {
  const pad = " ".repeat(Math.max(0, depth * 2 + oddIndent));
  switch (shape) {
    case "key":
      return `${pad}${key}:${value === "" ? "" : ` ${value}`}${tail}`;
    case "nested":
      return `${pad}${key}:${tail}`;
    case "entry":
      return `${pad}-${value === "" ? "" : ` ${value}`}${tail}`;
    case "entry-key":
      return `${pad}- ${key}: ${value}${tail}`;
    case "comment":
      return `${pad}# ${value}`;
    case "blank":
      return pad;
    default:
      return `${pad}${value}${tail}`;
  }
};

describe("fast YAML reader", () => {
  it("agrees with yaml on every shipped record, and reads them all itself", () => {
    const dir = path.resolve("config/components");
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".yaml"))) {
      expect(agrees(readFileSync(path.join(dir, f), "utf8")), f).toBe("fast");
    }
  });

  it("agrees with yaml on generated records (400; FUZZ_RUNS more) and the fixture record", () => {
    for (let i = 0, records = fuzzRuns(400); i < records; i++) expect(agrees(`# c\n${stringify(generateComponent(i))}`)).toBe("fast");
    expect(agrees(stringify(validComponent()))).toBe("fast");
  });

  const tricky = [
    "a: b\n  c: d\n",
    "a: 'it''s'\n",
    'a: "x" # c\nb: [x, "y, z"]\n',
    "a: b # c\n#d\ne:\n- f\n- g: h\n  i: j\n",
    "a: 1\n",
    "a: 0x1F\n",
    "a: .5\n",
    "a: -b\n",
    "a: yes\nb: no\nc: on\nd: ~\ne: Null\nf: TRUE\n",
    "a: &x b\nc: *x\n",
    "a: !!str 1\n",
    "a: |\n  text\n",
    "a: >\n  text\n",
    "a: b\na: c\n",
    "---\na: b\n",
    "a: b\n---\nc: d\n",
    "a:\n\tb: c\n",
    "a: {b: c}\n",
    "a: {}\nb: []\n",
    "a: [b, [c]]\n",
    '"a": b\n',
    "a:b\n",
    "a: b: c\n",
    "a: b:\n",
    "a: http://x.example/y?z=1#frag\n",
    "a: x #y\n",
    "a: x#y\n",
    "a: 'x # y'\n",
    'a: "x \\" y"\n',
    "a:\n  - b\n   - c\n",
    "a:\n    - b\n    - c\nd: e\n",
    "- a\n- b\n",
    "a:\n  -\n    b: c\n",
    "a:\n  - - b\n",
    "__proto__: x\n",
    "a: Bob's API\n",
    "a: x\n  # comment\nb: y\n",
    "a:\n  b: c\n d: e\n",
    "a: [ios, android, web]\n",
    "a: []\n",
    "a: ~\n",
    "true: x\n",
    "a: 'unterminated\n",
    "a: [x,\n  y]\n",
    "a: b\r\nc: d\r\n",
    "key with space: v\n",
    "a: [null, x]\n",
    "a: [~]\n",
    "a:   spaced   value   \n",
    "a: Café ünïcode\n",
    "a: \u00a0b\n",
    "a: b\u00a0\n",
    "a: b\u2028\n",
    "a: 0b101\n",
    "a: 1_000\n",
    "a: 012\n",
    "a: +12\n",
    "a: 2024-01-01\n",
    "a: .inf\n",
    "a: .NaN\n",
    "a: [1, 2]\n",
    "a: x, 5\n",
    "a: checkout-api-00001\n",
    "? a\n: b\n",
    "<<: {b: c}\n",
    "a: @x\n",
    "a: |-\n  text\n\n",
    "a: 'multi\n  line'\n",
    "a: plain\n  continued\n",
    "a: 'x # y'#x\n",
    "a: {}#x\n",
    "~:\na:\n",
    "null:\n",
    "- -\n- a: \n  x_y:\n",
    " -\n- a: \n",
    "a:\n - # note\n- # note\nx_y:\n",
  ];
  it.each(tricky)("declines or agrees: %j", (text) => {
    agrees(text);
  });

  it("declines or agrees on random documents made of lines records hold, and of lines they must not", () => {
    const runs = fuzzRuns(300);
    let read = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 10 }), fc.boolean(), (lines, finalNewline) => {
        if (agrees(documentText(lines) + (finalNewline ? "\n" : "")) === "fast") read++;
      }),
      fuzzParameters(runs),
    );
    // Not a test that passes by declining everything.
    expect(read).toBeGreaterThan(runs / 15);
  });

  it("agrees on random records as yaml writes them, and reads nearly all of them itself", () => {
    const scalarValue = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("org/team-1/x", "Café", "a: b", "# x", "'q'", "x y", "true", "12"), fc.boolean(), fc.constant(null));
    const record = fc.dictionary(
      fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/),
      fc.oneof(scalarValue, fc.array(scalarValue, { maxLength: 3 }), fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), scalarValue, { maxKeys: 3 })),
      { minKeys: 1, maxKeys: 6 },
    );
    fc.assert(
      fc.property(record, (value) => {
        agrees(stringify(value));
      }),
      fuzzParameters(200),
    );
  });
});
