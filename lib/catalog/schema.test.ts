import { describe, expect, it } from "vitest";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { componentSchema, validateComponent, API_TYPES, RELATIONS_MAX, COMPONENT_KINDS, DISPLAY_NAME_MAX, ENVIRONMENTS, DEPENDENCY_FLAGS, LIFECYCLES, MOBILE_PLATFORMS } from "./schema";
import { validComponent } from "@/test-support/catalog/temp-catalog";

function clone<T>(v: T): T {
  return structuredClone(v);
}

function setAt(obj: Record<string, unknown>, dotted: string, value: unknown): Record<string, unknown> {
  const parts = dotted.split(".");
  let cur: Record<string, unknown> = obj;
  for (const p of parts.slice(0, -1)) cur = cur[p] as Record<string, unknown>;
  const last = parts[parts.length - 1];
  if (value === undefined) delete cur[last];
  else cur[last] = value;
  return obj;
}

describe("Component schema: every field accepted", () => {
  it("accepts a record that uses every field", () => {
    const r = validateComponent(validComponent());
    expect(r.ok).toBe(true);
  });

  it.each(COMPONENT_KINDS)("accepts spec.kind %s", (kind) => {
    expect(validateComponent(validComponent("x", { kind })).ok).toBe(true);
  });

  it("accepts every environment, and none", () => {
    expect(validateComponent(validComponent("x", { environments: [...ENVIRONMENTS] })).ok).toBe(true);
    expect(validateComponent(validComponent("x", { environments: [], runtime: undefined })).ok).toBe(true);
  });

  it("accepts owners with and without group", () => {
    expect(validateComponent(validComponent("x", { owners: [{ user: "a" }, { user: "b", group: "g/h" }] })).ok).toBe(true);
  });

  it("accepts every mobile platform, every dependency flag, and each flag alone or absent", () => {
    for (const p of MOBILE_PLATFORMS) expect(validateComponent(validComponent("x", { runtime: { mobile: { platforms: [p] } } })).ok).toBe(true);
    for (const d of DEPENDENCY_FLAGS) expect(validateComponent(validComponent("x", { dependencies: { [d]: true } })).ok).toBe(true);
    expect(validateComponent(validComponent("x", { dependencies: {} })).ok).toBe(true);
  });

  it("accepts optional parts absent: runtime, k8s namespaces, dependencies, library, publish", () => {
    const c = validComponent("x", { runtime: { k8s: { deploymentContractPath: "d.yaml" } }, dependencies: undefined, library: { model: "single", defaultRegistry: "r" } });
    expect(validateComponent(c).ok).toBe(true);
    const bare = validComponent("y", { runtime: undefined, dependencies: undefined, library: undefined });
    expect(validateComponent(bare).ok).toBe(true);
  });

  it("accepts subgroups in the repository path", () => {
    expect(validateComponent(validComponent("x", { repo: { path: "a/b/c" } })).ok).toBe(true);
  });

  it("loads every shipped demo record, and together they use every field", () => {
    const dir = path.resolve("config/components");
    const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
    expect(files.length).toBeGreaterThanOrEqual(25);
    const records = files.map((f) => componentSchema.parse(parse(readFileSync(path.join(dir, f), "utf8"))));
    const kinds = new Set(records.map((r) => r.spec.kind));
    expect([...kinds].sort()).toEqual([...COMPONENT_KINDS].sort());
    const envs = new Set(records.flatMap((r) => r.spec.environments));
    expect([...envs].sort()).toEqual([...ENVIRONMENTS].sort());
    expect(records.some((r) => r.spec.environments.length === 0)).toBe(true);
    expect(records.some((r) => r.spec.owners.some((o) => o.group))).toBe(true);
    expect(records.some((r) => r.spec.owners.some((o) => !o.group))).toBe(true);
    const namespaced = new Set(records.flatMap((r) => Object.keys(r.spec.runtime?.k8s?.namespaces ?? {})));
    expect([...namespaced].sort()).toEqual([...ENVIRONMENTS].sort());
    const platforms = new Set(records.flatMap((r) => r.spec.runtime?.mobile?.platforms ?? []));
    expect([...platforms].sort()).toEqual([...MOBILE_PLATFORMS].sort());
    for (const d of DEPENDENCY_FLAGS) expect(records.some((r) => r.spec.dependencies?.[d] === true)).toBe(true);
    expect(records.some((r) => r.spec.dependencies && Object.values(r.spec.dependencies).includes(false))).toBe(true);
    expect(new Set(records.map((r) => r.spec.library?.model).filter(Boolean))).toEqual(new Set(["monorepo", "single"]));
    expect(records.some((r) => r.spec.library?.publish?.visibilityPolicy.allowPublic === true)).toBe(true);
    expect(records.some((r) => r.spec.library && !r.spec.library.publish)).toBe(true);
    expect(records.some((r) => r.spec.runtime?.k8s && !r.spec.runtime.k8s.namespaces)).toBe(true);
    expect(new Set(records.map((r) => r.spec.lifecycle).filter(Boolean))).toEqual(new Set(LIFECYCLES));
    expect(records.some((r) => r.metadata.description && r.metadata.tags?.length && r.metadata.links?.some((l) => l.icon))).toBe(true);
    // Relations: at least two systems, and every reference names a shipped record or API (no warning on show).
    expect(new Set(records.map((r) => r.spec.system).filter(Boolean)).size).toBeGreaterThanOrEqual(2);
    const names = new Set(records.map((r) => r.metadata.name));
    const apis = new Set(records.flatMap((r) => r.spec.providesApis ?? []).map((a) => a.name));
    expect([...apis.values()].length).toBeGreaterThanOrEqual(2);
    expect(new Set(records.flatMap((r) => r.spec.providesApis ?? []).map((a) => a.type))).toEqual(new Set(API_TYPES));
    expect(records.flatMap((r) => r.spec.dependsOn ?? []).filter((n) => !names.has(n))).toEqual([]);
    expect(records.flatMap((r) => r.spec.consumesApis ?? []).filter((n) => !apis.has(n))).toEqual([]);
    expect(records.some((r) => r.spec.dependsOn?.length)).toBe(true);
    expect(records.some((r) => r.spec.consumesApis?.length)).toBe(true);
  });
});

// Each field with a value of a wrong type (and wrong values); the error names the field path.
const wrong: Array<[string, unknown, string]> = [
  ["apiVersion", 1, "apiVersion"],
  ["apiVersion", "platform.example.com/v1", "apiVersion"],
  ["apiVersion", undefined, "apiVersion"],
  ["kind", "Service", "kind"],
  ["kind", true, "kind"],
  ["metadata", "x", "metadata"],
  ["metadata.name", 7, "metadata.name"],
  ["metadata.name", "Has Spaces", "metadata.name"],
  ["metadata.name", "../etc", "metadata.name"],
  ["metadata.name", "favorites", "metadata.name"],
  ["metadata.displayName", ["a"], "metadata.displayName"],
  ["metadata.displayName", "", "metadata.displayName"],
  ["spec", [], "spec"],
  ["spec.kind", "backend", "spec.kind"],
  ["spec.kind", 3, "spec.kind"],
  ["spec.repo", "commerce/x", "spec.repo"],
  ["spec.repo.path", "no-slash", "spec.repo.path"],
  ["spec.repo.path", 12, "spec.repo.path"],
  ["spec.owners", "alice", "spec.owners"],
  ["spec.owners", [], "spec.owners"],
  ["spec.owners", [{ user: 5 }], "spec.owners[0].user"],
  ["spec.owners", [{ user: "a", group: false }], "spec.owners[0].group"],
  ["spec.owners", [{ group: "g" }], "spec.owners[0].user"],
  ["spec.environments", "dev", "spec.environments"],
  ["spec.environments", ["prod"], "spec.environments[0]"],
  ["spec.environments", ["dev", "dev"], "spec.environments"],
  ["spec.runtime", 1, "spec.runtime"],
  ["spec.runtime.k8s", [], "spec.runtime.k8s"],
  ["spec.runtime.k8s.namespaces", "ns", "spec.runtime.k8s.namespaces"],
  ["spec.runtime.k8s.namespaces", { dev: 3 }, "spec.runtime.k8s.namespaces.dev"],
  ["spec.runtime.k8s.namespaces", { qa: "x" }, "spec.runtime.k8s.namespaces.qa"],
  ["spec.runtime.k8s.deploymentContractPath", null, "spec.runtime.k8s.deploymentContractPath"],
  ["spec.runtime.mobile", true, "spec.runtime.mobile"],
  ["spec.runtime.mobile.platforms", "ios", "spec.runtime.mobile.platforms"],
  ["spec.runtime.mobile.platforms", ["windows"], "spec.runtime.mobile.platforms[0]"],
  ["spec.dependencies", ["mongo"], "spec.dependencies"],
  ["spec.dependencies.mongo", "yes", "spec.dependencies.mongo"],
  ["spec.dependencies.redis", 1, "spec.dependencies.redis"],
  ["spec.dependencies.pubsub", "true", "spec.dependencies.pubsub"],
  ["spec.dependencies.gcpSecrets", null, "spec.dependencies.gcpSecrets"],
  ["spec.dependencies.mysql", true, "spec.dependencies.mysql"],
  ["spec.library", "npm", "spec.library"],
  ["spec.library.model", "polyrepo", "spec.library.model"],
  ["spec.library.defaultRegistry", 4, "spec.library.defaultRegistry"],
  ["spec.library.publish", "always", "spec.library.publish"],
  ["spec.library.publish.strategy", [], "spec.library.publish.strategy"],
  ["spec.library.publish.visibilityPolicy", "public", "spec.library.publish.visibilityPolicy"],
  ["spec.library.publish.visibilityPolicy.default", 0, "spec.library.publish.visibilityPolicy.default"],
  ["spec.library.publish.visibilityPolicy.allowPublic", "yes", "spec.library.publish.visibilityPolicy.allowPublic"],
  ["spec.extra", 1, "spec.extra"],
  ["spec.system", "Payments Platform", "spec.system"],
  ["spec.system", 3, "spec.system"],
  ["spec.dependsOn", "payments", "spec.dependsOn"],
  ["spec.dependsOn", ["Payments"], "spec.dependsOn[0]"],
  ["spec.dependsOn", ["a", "a"], "spec.dependsOn"],
  ["spec.providesApis", { name: "x" }, "spec.providesApis"],
  ["spec.providesApis", [{ name: "x", type: "soap", path: "api.wsdl" }], "spec.providesApis[0].type"],
  ["spec.providesApis", [{ name: "x", type: "grpc" }], "spec.providesApis[0].path"],
  ["spec.providesApis", [{ name: "x", type: "grpc", path: "../secrets" }], "spec.providesApis[0].path"],
  ["spec.providesApis", [{ name: "x", type: "grpc", path: "a.proto", version: 2 }], "spec.providesApis[0].version"],
  ["spec.consumesApis", [7], "spec.consumesApis[0]"],
];

describe("Component schema: every wrong type is reported at its field", () => {
  it.each(wrong)("%s = %j", (field, value, expectedPath) => {
    const input = setAt(clone(validComponent()) as unknown as Record<string, unknown>, field, value);
    const r = validateComponent(input);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const paths = r.issues.map((i) => i.path);
    expect(paths).toContain(expectedPath);
    for (const issue of r.issues) {
      expect(issue.message.length).toBeGreaterThan(5);
      expect(issue.message).not.toMatch(/^Invalid input$/);
    }
  });

  it("speaks plainly: required, expected type and found value", () => {
    const r = validateComponent(setAt(clone(validComponent()) as unknown as Record<string, unknown>, "metadata.displayName", 42));
    expect(r.ok ? [] : r.issues).toEqual([{ path: "metadata.displayName", keys: ["metadata", "displayName"], message: "expected text, found the number 42" }]);
    const missing = validateComponent(setAt(clone(validComponent()) as unknown as Record<string, unknown>, "spec.repo.path", undefined));
    expect(missing.ok ? "" : missing.issues[0].message).toMatch(/spec\.repo\.path is required/);
  });

  it("says an empty value is empty, in words", () => {
    const r = validateComponent(setAt(clone(validComponent()) as unknown as Record<string, unknown>, "spec.repo.path", ""));
    expect(r.ok ? [] : r.issues.map((i) => i.message)).toEqual(["repository path must have the form <group>/<project> (it is empty)"]);
  });

  it("limits displayName to DISPLAY_NAME_MAX characters", () => {
    const named = (displayName: string) => validateComponent(setAt(clone(validComponent()) as unknown as Record<string, unknown>, "metadata.displayName", displayName));
    expect(named("x".repeat(DISPLAY_NAME_MAX)).ok).toBe(true);
    // Counted after trimming: surrounding spaces are not part of the name.
    expect(named(`  ${"x".repeat(DISPLAY_NAME_MAX)}  `).ok).toBe(true);
    const long = named("x".repeat(DISPLAY_NAME_MAX + 1));
    expect(long.ok ? [] : long.issues).toEqual([
      { path: "metadata.displayName", keys: ["metadata", "displayName"], message: `displayName must be at most ${DISPLAY_NAME_MAX} characters` },
    ]);
  });

  it("takes Backstage's optional fields, checked: description, tags, links, lifecycle", () => {
    const withMeta = (meta: Record<string, unknown>, lifecycle?: string) => {
      const c = clone(validComponent()) as unknown as { metadata: Record<string, unknown>; spec: Record<string, unknown> };
      Object.assign(c.metadata, meta);
      if (lifecycle !== undefined) c.spec.lifecycle = lifecycle;
      return validateComponent(c);
    };
    const messages = (r: ReturnType<typeof validateComponent>) => (r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`));
    expect(withMeta({ description: "Takes payment.", tags: ["payments", "tier-1"], links: [{ url: "https://runbooks.example.com/x", title: "Runbook", icon: "docs" }] }, "production").ok).toBe(true);
    expect(messages(withMeta({ description: "x".repeat(1001) }))).toEqual(["metadata.description: description must be at most 1000 characters"]);
    expect(messages(withMeta({ tags: ["Payments"] }))[0]).toMatch(/^metadata\.tags\[0\]: a tag is lowercase/);
    expect(messages(withMeta({ tags: ["a", "a"] }))).toEqual(["metadata.tags: a tag is listed twice"]);
    expect(messages(withMeta({ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }))).toEqual(["metadata.tags: at most 20 tags"]);
    expect(messages(withMeta({ links: [{ url: "javascript:alert(1)", title: "x" }] }))).toEqual(["metadata.links[0].url: a link's url must be a full http:// or https:// address"]);
    expect(messages(withMeta({ links: [{ url: "https://x.example", title: "" }] }))[0]).toMatch(/^metadata\.links\[0\]\.title: /);
    expect(messages(withMeta({ links: [{ url: "https://x.example", title: "x", target: "_blank" }] }))[0]).toMatch(/^metadata\.links\[0\]/);
    expect(messages(withMeta({}, "retired"))[0]).toBe('spec.lifecycle: must be one of experimental, production, deprecated; found text "retired"');
  });

  it("takes relations, checked: system, dependsOn, providesApis, consumesApis", () => {
    const withSpec = (spec: Record<string, unknown>, name = "checkout-api") => {
      const c = clone(validComponent(name)) as unknown as { spec: Record<string, unknown> };
      Object.assign(c.spec, spec);
      return validateComponent(c);
    };
    const messages = (r: ReturnType<typeof validateComponent>) => (r.ok ? [] : r.issues.map((i) => `${i.path}: ${i.message}`));
    const every = withSpec({ system: "payments", dependsOn: ["payments-gateway"], providesApis: [{ name: "checkout", type: "openapi", path: "api/openapi.yaml" }], consumesApis: ["payments"] });
    expect(every.ok).toBe(true);
    // Names that no record holds are not the schema's business: the catalog warns about them.
    expect(withSpec({ dependsOn: ["nowhere"], consumesApis: ["nothing"] }).ok).toBe(true);
    expect(messages(withSpec({ dependsOn: ["checkout-api"] }))).toEqual(["spec.dependsOn[0]: a component does not depend on itself"]);
    expect(messages(withSpec({ dependsOn: ["a", "a"] }))).toEqual(["spec.dependsOn: a name is listed twice in dependsOn"]);
    expect(messages(withSpec({ providesApis: [{ name: "x", type: "grpc", path: "a.proto" }, { name: "x", type: "openapi", path: "b.yaml" }] }))).toEqual(["spec.providesApis: an API is listed twice in providesApis"]);
    expect(messages(withSpec({ providesApis: [{ name: "x", type: "soap", path: "a.wsdl" }] }))).toEqual(['spec.providesApis[0].type: must be one of openapi, asyncapi, grpc; found text "soap"']);
    expect(messages(withSpec({ providesApis: [{ name: "x", type: "grpc", path: "/etc/a.proto" }] }))[0]).toMatch(/^spec\.providesApis\[0\]\.path: an API's path is relative to the component's repository/);
    expect(messages(withSpec({ system: "Payments" }))[0]).toMatch(/^spec\.system: system must be lowercase letters/);
    expect(messages(withSpec({ consumesApis: Array.from({ length: RELATIONS_MAX + 1 }, (_, i) => `api-${i}`) }))).toEqual([`spec.consumesApis: consumesApis lists at most ${RELATIONS_MAX} names`]);
  });

  it("refuses a namespace for an environment the component does not list", () => {
    const r = validateComponent(validComponent("x", { environments: ["dev"] }));
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.issues.map((i) => i.path)).toContain("spec.runtime.k8s.namespaces.production");
  });
});

describe("shipped demo records", () => {
  it("round-trip through write-back unchanged (an edit's diff shows only the edit)", async () => {
    const { renderUpdate } = await import("./writeback");
    const dir = path.resolve("config/components");
    for (const f of readdirSync(dir).filter((n) => n.endsWith(".yaml"))) {
      const text = readFileSync(path.join(dir, f), "utf8");
      expect(renderUpdate(text, parse(text)), f).toBe(text);
    }
  });
});
