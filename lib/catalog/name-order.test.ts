import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstInNameOrder, inNameOrder } from "./name-order";

const sorted = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe("names in order, lazily", () => {
  it("gives every name in code-unit order, small and large sets alike, leaving one out", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 6 }), { maxLength: 300 }), fc.option(fc.string({ maxLength: 6 }), { nil: undefined }), (names, without) => {
        expect([...inNameOrder(new Set(names), without)]).toEqual(sorted(names.filter((n) => n !== without)));
      }),
    );
  });

  it("gives the first few of a large set without sorting the rest", () => {
    const names = Array.from({ length: 10_000 }, (_, i) => `svc-${String((i * 7919) % 10_000).padStart(5, "0")}`);
    expect(firstInNameOrder(new Set(names), 3)).toEqual(["svc-00000", "svc-00001", "svc-00002"]);
    expect(firstInNameOrder(names, 0)).toEqual([]);
    expect(firstInNameOrder(["b", "a"], 5)).toEqual(["a", "b"]);
  });
});
