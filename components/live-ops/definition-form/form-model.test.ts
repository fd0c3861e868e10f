// The definition form's number checks say the whole rule as a sentence, whatever is wrong with what was typed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { draftSchema, newDraft, numberFault, numberRuleInWords } from "./form-model";

describe("numberFault", () => {
  it("gives the rule in words for each way a typed number can miss it", () => {
    const priority = { min: -1_000_000, max: 1_000_000, integer: true };
    expect(numberFault("", priority)).toBe("Enter a whole number from -1,000,000 to 1,000,000.");
    expect(numberFault("2.5", priority)).toBe("Enter a whole number from -1,000,000 to 1,000,000; 2.5 is not.");
    expect(numberFault("lots", { min: 0, max: 100 })).toBe("“lots” is not a number: enter a number from 0 to 100.");
    expect(numberFault("0", { min: 0.000001 })).toBe("Enter a number above 0; 0 is not.");
    expect(numberFault("-1", { min: 0, integer: true })).toBe("Enter a whole number of 0 or more; -1 is not.");
    expect(numberFault("", { min: 1, optional: true })).toBeNull();
    expect(numberFault(" 42 ", { min: 1, max: 100, integer: true })).toBeNull();
  });

  it("quotes at most 20 characters of a long paste", () => {
    expect(numberFault("x".repeat(10_000), { min: 0 })).toBe(`“${"x".repeat(20)}…” is not a number: enter a number of 0 or more.`);
  });

  it("is null exactly when the number fits, and otherwise a sentence stating the rule", () => {
    const rule = fc.record({ min: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: undefined }), span: fc.nat(2000), integer: fc.boolean(), hasMax: fc.boolean() });
    const typed = fc.oneof(fc.string({ maxLength: 30 }), fc.double({ noNaN: true, min: -5000, max: 5000 }).map(String), fc.integer({ min: -5000, max: 5000 }).map(String));
    fc.assert(
      fc.property(rule, typed, ({ min, span, integer, hasMax }, text) => {
        const r = { min, max: hasMax ? (min ?? 0) + span : undefined, integer };
        const n = Number(text.trim());
        const fits = text.trim() !== "" && Number.isFinite(n) && (!integer || Number.isInteger(n)) && (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max);
        const fault = numberFault(text, r);
        if (fits) return fault === null;
        return fault !== null && /[.]$/.test(fault) && fault.includes(numberRuleInWords(r)) && /^[A-Z“]/.test(fault);
      }),
    );
  });
});

describe("draftSchema messages", () => {
  it("are sentences for people: a capital first letter and a full stop", () => {
    const draft = { ...newDraft(), offerId: "has space", name: "", rollout: "150", priority: "x", durationAmount: "0", image: "nope", startsAt: "2026-12-31T10:00", endsAt: "2026-12-30T10:00" };
    const issues = draftSchema(true).safeParse(draft).error?.issues ?? [];
    expect(issues.length).toBeGreaterThanOrEqual(7);
    for (const issue of issues) expect(issue.message).toMatch(/^[A-Z“].*[.]$/s);
  });
});
