import { describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadPortalConfig, parsePortalConfig, PortalConfigError, resolveRoles } from "./portal-yaml";
import { hasRole } from "./roles";

describe("portal.yaml roles", () => {
  const shipped = loadPortalConfig("config/portal.yaml");

  it("gives every signed-in user engineer", () => {
    expect(resolveRoles(shipped, "someone", [])).toEqual(["engineer"]);
  });

  it("maps the shipped users to their roles", () => {
    expect(resolveRoles(shipped, "admin", [])).toEqual(["engineer", "admin"]);
    expect(resolveRoles(shipped, "lee", [])).toEqual(["engineer", "lead"]);
    expect(resolveRoles(shipped, "olga", [])).toEqual(["engineer", "operator"]);
    expect(resolveRoles(shipped, "sam", [])).toEqual(["engineer", "support"]);
  });

  it("adds the roles of each group and compares names case-insensitively", () => {
    expect(resolveRoles(shipped, "Lee", ["platform/operations", "Customer-Support", "unknown/group"])).toEqual([
      "engineer",
      "lead",
      "operator",
      "support",
    ]);
  });

  it("does not match group prefixes", () => {
    expect(resolveRoles(shipped, "x", ["platform", "platform/operations-old"])).toEqual(["engineer"]);
  });

  it("admin implies every role", () => {
    const admin = { roles: resolveRoles(shipped, "admin", []) };
    for (const role of ["engineer", "lead", "operator", "support", "admin"] as const) expect(hasRole(admin, role)).toBe(true);
    expect(hasRole({ roles: ["engineer", "lead"] }, "operator")).toBe(false);
  });

  it("applies defaults for missing sections", () => {
    const config = parsePortalConfig("roles:\n  users:\n    ann: [operator]\n");
    expect(resolveRoles(config, "ann", [])).toEqual(["engineer", "operator"]);
    expect(config.providers.gitlab.label).toBe("GitLab");
    expect(resolveRoles(parsePortalConfig(""), "x", [])).toEqual(["engineer"]);
  });

  it("rejects unknown role names, naming the key", () => {
    expect(() => parsePortalConfig("roles:\n  users:\n    ann: [superuser]\n", "p.yaml")).toThrow(PortalConfigError);
    expect(() => parsePortalConfig("roles:\n  users:\n    ann: [superuser]\n", "p.yaml")).toThrow(/p\.yaml: roles\.users\.ann\.0/);
  });

  it("rejects YAML that does not parse", () => {
    expect(() => parsePortalConfig("roles: [", "p.yaml")).toThrow(/not valid YAML/);
  });

  it("the shipped file is the one read", () => {
    expect(readFileSync("config/portal.yaml", "utf8")).toContain("lee: [lead]");
  });

  it("re-reads the file when it changes, and keeps the last valid version when an edit breaks it", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "portal-config-")), "portal.yaml");
    writeFileSync(file, "roles:\n  users:\n    ann: [lead]\n");
    expect(resolveRoles(loadPortalConfig(file), "ann", [])).toEqual(["engineer", "lead"]);
    writeFileSync(file, "roles:\n  users:\n    ann: [operator]\n");
    utimesSync(file, new Date(), new Date(Date.now() + 2_000));
    expect(resolveRoles(loadPortalConfig(file), "ann", [])).toEqual(["engineer", "operator"]);
    writeFileSync(file, "roles:\n  users:\n    ann: [nope]\n");
    utimesSync(file, new Date(), new Date(Date.now() + 4_000));
    expect(resolveRoles(loadPortalConfig(file), "ann", [])).toEqual(["engineer", "operator"]);
  });
});
