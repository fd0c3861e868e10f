// instanceof across bundles: Next.js holds one copy of a module per bundle, so the class an error was
// built with may not be the class a route's error mapper imported. Two copies are two class objects
// with the same brand.
import { describe, expect, it } from "vitest";
import { BrandedError } from "./errors";

function copyOfTheModule() {
  class ScmError extends BrandedError {
    static readonly brand: string = "test.ScmError";
  }
  class RefMovedError extends ScmError {
    static readonly brand: string = "test.RefMovedError";
  }
  class Unbranded extends ScmError {}
  return { ScmError, RefMovedError, Unbranded };
}

describe("BrandedError", () => {
  const a = copyOfTheModule();
  const b = copyOfTheModule();

  it("an error built by one copy of a class is an instance of the other copy", () => {
    expect(a.ScmError).not.toBe(b.ScmError);
    expect(new a.ScmError("x")).toBeInstanceOf(b.ScmError);
    expect(new a.RefMovedError("x")).toBeInstanceOf(b.RefMovedError);
    expect(new a.RefMovedError("x")).toBeInstanceOf(b.ScmError);
    expect(new a.RefMovedError("x")).toBeInstanceOf(Error);
  });

  it("a parent is not an instance of its subclass, and strangers are nothing", () => {
    expect(new a.ScmError("x") instanceof b.RefMovedError).toBe(false);
    expect(new Error("x") instanceof a.ScmError).toBe(false);
    expect((null as unknown as object) instanceof a.ScmError).toBe(false);
    expect(({ message: "x" }) instanceof (a.ScmError as unknown as typeof Object)).toBe(false);
  });

  it("a subclass without a brand of its own falls back to identity", () => {
    expect(new a.Unbranded("x")).toBeInstanceOf(a.Unbranded);
    expect(new a.Unbranded("x") instanceof b.Unbranded).toBe(false);
    expect(new a.Unbranded("x")).toBeInstanceOf(b.ScmError);
  });
});
