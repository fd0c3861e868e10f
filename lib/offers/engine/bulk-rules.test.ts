import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isIdentifier } from "../contract";
import { bulkGrantId, csvField, parseIdList, quoteRejected, resultCsvLine } from "./bulk-rules";

const validId = fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.@+=|~-]{0,20}$/).filter((id) => !["playerid", "player_id", "player", "id"].includes(id.toLowerCase()));
const anyCell = fc.oneof(validId, fc.string({ maxLength: 12 }).map((s) => s.replaceAll(/[,\r\n"]/g, "")));

describe("a list of player ids", () => {
  it("keeps every valid id once, in the order first listed, and counts the rest as duplicates or invalid", () => {
    fc.assert(
      fc.property(fc.array(anyCell, { maxLength: 60 }), fc.constantFrom("\n", "\r\n", ","), (cells, separator) => {
        const parsed = parseIdList(cells.join(separator));
        const written = cells.map((c) => c.trim()).filter((c) => c !== "");
        expect(parsed.ids.length + parsed.duplicates + parsed.invalid).toBe(written.length);
        expect(new Set(parsed.ids).size).toBe(parsed.ids.length);
        expect(parsed.ids.every(isIdentifier)).toBe(true);
        expect(parsed.ids).toEqual([...new Set(written.filter(isIdentifier))]);
        expect(parsed.invalid).toBe(written.filter((c) => !isIdentifier(c)).length);
      }),
    );
  });

  it("reads the same ids whatever the separators, a header or spreadsheet quotes", () => {
    fc.assert(
      fc.property(fc.array(validId, { minLength: 1, maxLength: 40 }), (ids) => {
        const plain = parseIdList(ids.join("\n")).ids;
        expect(parseIdList(`playerId\r\n${ids.map((id) => `"${id}"`).join("\r\n")}\r\n`).ids).toEqual(plain);
        expect(parseIdList(ids.join(", ")).ids).toEqual(plain);
      }),
    );
  });

  it("quotes a rejected id without control characters, whatever it holds", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (value) => {
        const quoted = quoteRejected(value);
        expect(quoted).not.toMatch(/[\u0000-\u001f\u007f]/);
        expect(quoted.length).toBeLessThanOrEqual(80);
      }),
    );
    expect(parseIdList("a\nb\u0000c\nb").invalidSample).toEqual([{ line: 2, value: "b\\u{0}c" }]);
    expect(parseIdList("a\nb\u0000c\na").duplicates).toBe(1);
  });

  it("gives each player of a job one grant id, different for every (job, player)", () => {
    fc.assert(
      fc.property(fc.tuple(validId, validId), fc.tuple(validId, validId), ([j1, p1], [j2, p2]) => {
        if (j1 !== j2 || p1 !== p2) expect(bulkGrantId(`bc_${j1}`, p1)).not.toBe(bulkGrantId(`bc_${j2}`, p2));
      }),
    );
  });
});

describe("the result as CSV", () => {
  it("never starts a field like a formula, and a field reads back as written", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (value) => {
        const field = csvField(value);
        expect(field).not.toMatch(/^[=+\-@\t\r]/);
        const unquoted = field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
        expect(unquoted.replace(/^'(?=[=+\-@\t\r])/, "")).toBe(value);
      }),
    );
    expect(resultCsvLine({ playerId: "p1", outcome: "granted", grantId: "bc_1:p1" })).toBe("p1,granted,bc_1:p1\n");
    expect(resultCsvLine({ playerId: "-p", outcome: "unknown", grantId: null })).toBe(`"'-p",unknown,\n`);
  });
});
