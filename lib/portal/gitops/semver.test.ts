import { describe, expect, it } from "vitest";
import { bump, compareVersions, highestVersion, nextVersion, parseVersion, sortVersionsDesc, tagOf } from "./semver";

describe("semantic versions", () => {
  it("parses MAJOR.MINOR.PATCH with an optional v, and nothing else", () => {
    expect(parseVersion("1.2.3")).toEqual({ major: 1, minor: 2, patch: 3 });
    expect(parseVersion("v0.10.0")).toEqual({ major: 0, minor: 10, patch: 0 });
    for (const bad of ["1.2", "01.2.3", "1.2.3-rc.1", "1.2.3+b", "v", "latest", "1.2.3.4", " "]) expect(parseVersion(bad)).toBeNull();
  });
  it("compares numerically, not as text", () => {
    expect(compareVersions(parseVersion("1.10.0")!, parseVersion("1.9.0")!)).toBeGreaterThan(0);
    expect(sortVersionsDesc(["1.9.0", "1.10.0", "0.1.0", "2.0.0"])).toEqual(["2.0.0", "1.10.0", "1.9.0", "0.1.0"]);
  });
  it("bumps minor by default and major when asked, resetting lower parts", () => {
    expect(bump(parseVersion("1.4.2"), "minor")).toEqual({ major: 1, minor: 5, patch: 0 });
    expect(bump(parseVersion("1.4.2"), "major")).toEqual({ major: 2, minor: 0, patch: 0 });
  });
  it("starts at 0.1.0 (minor) or 1.0.0 (major)", () => {
    expect(nextVersion([])).toBe("0.1.0");
    expect(nextVersion([], "major")).toBe("1.0.0");
  });
  it("continues from the highest known version, ignoring tags that are not versions", () => {
    expect(nextVersion(["v1.2.0", "v1.10.0", "nightly", "1.3.0"])).toBe("1.11.0");
    expect(nextVersion(["v1.2.0", "v0.9.0"], "major")).toBe("2.0.0");
    expect(highestVersion(["x", "y"])).toBeNull();
    expect(tagOf("1.2.0")).toBe("v1.2.0");
  });
});
