import { describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse, stringify } from "yaml";
import { fastParseYaml } from "./fast-yaml";
import { generateComponent } from "../../bench/catalog/generate";
import { validComponent } from "./testing";

function full(text: string): unknown {
  try {
    return parse(text, { uniqueKeys: true, strict: true, maxAliasCount: 100 });
  } catch {
    return Symbol.for("error");
  }
}

/** Either the fast reader declines, or it agrees with the full parser. */
function agrees(text: string): "fast" | "declined" {
  const fast = fastParseYaml(text);
  if (fast === undefined) return "declined";
  expect(fast, text).toEqual(full(text));
  return "fast";
}

describe("fast YAML reader", () => {
  it("agrees with yaml on every shipped record, and reads them all itself", () => {
    const dir = path.resolve("config/components");
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".yaml"))) {
      expect(agrees(readFileSync(path.join(dir, f), "utf8")), f).toBe("fast");
    }
  });

  it("agrees with yaml on 2,000 generated records and the fixture record", () => {
    for (let i = 0; i < 2000; i++) expect(agrees(`# c\n${stringify(generateComponent(i))}`)).toBe("fast");
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
  ];
  it.each(tricky)("declines or agrees: %j", (text) => {
    agrees(text);
  });
});
