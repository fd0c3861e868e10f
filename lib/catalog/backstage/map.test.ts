import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { validateComponent } from "../schema";
import { mapBackstage, type MapContext } from "./map";
import { CATALOG_FILE_MAX, locationTargets, parseCatalogFile } from "./parse";
import { parseRef, resolveInRepo } from "./refs";

const ctx: MapContext = { repoPath: "growth/loyalty", apiVersion: "platform.example.com/v1alpha1", fallbackUser: "olga", taken: new Set(["checkout-api"]) };

const CATALOG = `apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: loyalty-service
  title: Loyalty service
  description: Points for every purchase.
  tags: [loyalty, Points]
  annotations:
    github.com/project-slug: acme/loyalty
  links:
    - url: https://grafana.example.com/d/loyalty
      title: Dashboard
      type: dashboard
spec:
  type: service
  lifecycle: production
  owner: group:default/loyalty-team
  system: system:default/loyalty
  dependsOn: [component:default/checkout-api, resource:default/loyalty-db]
  providesApis: [loyalty-api, loyalty-events]
  consumesApis: [api:default/pricing-api]
  subcomponentOf: rewards
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: loyalty-api
  description: Points API
spec:
  type: openapi
  lifecycle: production
  owner: loyalty-team
  definition:
    $text: ./api/openapi.yaml
---
apiVersion: backstage.io/v1alpha1
kind: API
metadata:
  name: loyalty-events
spec:
  type: asyncapi
  definition: |
    asyncapi: 2.6.0
---
apiVersion: backstage.io/v1alpha1
kind: System
metadata:
  name: loyalty
spec:
  owner: loyalty-team
---
apiVersion: backstage.io/v1alpha1
kind: Group
metadata:
  name: loyalty-team
spec:
  type: team
  parent: growth
  children: []
  members: [user:default/bob.nguyen, alice.martin]
---
apiVersion: backstage.io/v1alpha1
kind: Resource
metadata:
  name: loyalty-db
spec:
  type: database
---
apiVersion: backstage.io/v1alpha1
kind: Component
metadata:
  name: Loyalty_Admin
spec:
  type: website
  owner: user:alice.martin
`;

const notesOf = (unmapped: { entity: string; field: string; message: string }[], entity: string) => unmapped.filter((n) => n.entity === entity).map((n) => `${n.field}: ${n.message}`);

describe("Backstage references and paths", () => {
  it("reads kind, namespace and name, with the field's default kind", () => {
    expect(parseRef("component:default/x", "group")).toEqual({ kind: "component", namespace: "default", name: "x" });
    expect(parseRef("team-a", "group")).toEqual({ kind: "group", namespace: "default", name: "team-a" });
    expect(parseRef("ops/team-a", "group")).toEqual({ kind: "group", namespace: "ops", name: "team-a" });
    expect(parseRef("not a ref", "group")).toBeNull();
    expect(parseRef(3, "group")).toBeNull();
  });
  it("resolves paths inside the repository only", () => {
    expect(resolveInRepo("catalog-info.yaml", "./api/openapi.yaml")).toBe("api/openapi.yaml");
    expect(resolveInRepo("web/catalog-info.yaml", "../api/x.yaml")).toBe("api/x.yaml");
    expect(resolveInRepo("catalog-info.yaml", "../elsewhere.yaml")).toBeNull();
    expect(resolveInRepo("catalog-info.yaml", "/etc/passwd")).toBeNull();
    expect(resolveInRepo("catalog-info.yaml", "https://github.com/acme/x/blob/main/catalog-info.yaml")).toBeNull();
  });
});

describe("parseCatalogFile", () => {
  it("reads every document; an invalid one is reported and the others still count", () => {
    const { entities, notes } = parseCatalogFile("catalog-info.yaml", "kind: Component\nmetadata: {name: a}\n---\nkind: [unclosed\n---\n- a list\n---\nkind: System\nmetadata: {name: s}\n");
    expect(entities.map((e) => e.label)).toEqual(["component:default/a", "system:default/s"]);
    expect(notes.map((n) => n.entity)).toEqual(["catalog-info.yaml, document 2", "catalog-info.yaml, document 3"]);
    expect(notes[0].message).toMatch(/^not valid YAML/);
  });
  it("refuses a file over the limit in words, without parsing it", () => {
    const { entities, notes } = parseCatalogFile("catalog-info.yaml", `# ${"x".repeat(10_000_000)}\n`);
    expect(entities).toEqual([]);
    expect(notes[0].message).toContain(`the file is 10.0 MB; at most ${CATALOG_FILE_MAX / 1_000_000} MB is read`);
  });
  it("follows a Location's targets in the repository, and reports the others", () => {
    const { entities } = parseCatalogFile("catalog-info.yaml", "kind: Location\nmetadata: {name: all}\nspec:\n  targets: [./web/catalog-info.yaml, https://example.com/x.yaml]\n");
    const { files, notes } = locationTargets(entities[0]);
    expect(files).toEqual(["web/catalog-info.yaml"]);
    expect(notes).toEqual([{ entity: "location:default/all", field: "spec.targets[1]", message: expect.stringContaining("is not a file of this repository") }]);
  });
});

describe("mapBackstage", () => {
  const { entities } = parseCatalogFile("catalog-info.yaml", CATALOG);
  const mapping = mapBackstage(entities, ctx);

  it("maps a Component with its API, system, group owners and references as names", () => {
    expect(mapping.components.map((c) => c.entity)).toEqual(["component:default/loyalty-service"]);
    const { metadata, spec } = mapping.components[0].component;
    expect(metadata).toEqual({ name: "loyalty-service", displayName: "Loyalty service", description: "Points for every purchase.", tags: ["loyalty"], links: [{ url: "https://grafana.example.com/d/loyalty", title: "Dashboard" }] });
    expect(spec).toMatchObject({
      kind: "service",
      lifecycle: "production",
      repo: { path: "growth/loyalty" },
      owners: [
        { user: "bob.nguyen", group: "growth/loyalty-team" },
        { user: "alice.martin", group: "growth/loyalty-team" },
      ],
      system: "loyalty",
      dependsOn: ["checkout-api"],
      providesApis: [{ name: "loyalty-api", type: "openapi", path: "api/openapi.yaml" }],
      consumesApis: ["pricing-api"],
      environments: ["dev", "staging", "production"],
    });
  });

  it("reports what did not map, per entity and field, in words", () => {
    const service = notesOf(mapping.unmapped, "component:default/loyalty-service");
    expect(service).toEqual(
      expect.arrayContaining([
        "metadata.annotations.github.com/project-slug: not kept: our records have no such field",
        expect.stringMatching(/^metadata\.tags\[1\]: "Points" not kept/),
        "metadata.links[0].type: not kept: our links have a url, a title and an icon",
        expect.stringMatching(/^spec\.dependsOn\[1\]: resource:default\/loyalty-db is a resource; our dependsOn names components only/),
        expect.stringMatching(/^spec\.providesApis\[1\]: the API loyalty-events was not kept \(the definition is inline/),
        "spec.subcomponentOf: not kept: our records have no such field",
        expect.stringMatching(/^spec\.environments: Backstage has none/),
      ]),
    );
    expect(notesOf(mapping.unmapped, "api:default/loyalty-events")).toEqual([expect.stringMatching(/^spec\.definition: the definition is inline \(\d+ characters\)/)]);
    expect(notesOf(mapping.unmapped, "api:default/loyalty-api")).toEqual(expect.arrayContaining(["spec.owner: not kept: the providing component's record carries the API (its owners, lifecycle and system are the component's)"]));
    expect(notesOf(mapping.unmapped, "resource:default/loyalty-db")).toEqual([expect.stringMatching(/^kind: kind Resource is not imported/)]);
    expect(notesOf(mapping.unmapped, "group:default/loyalty-team")).toEqual(["spec.type: not kept: a group is the owners' group path, its members the owners"]);
  });

  it("refuses a name our schema refuses, per entity, and never renames it", () => {
    expect(mapping.failed).toEqual([{ entity: "component:default/Loyalty_Admin", name: "Loyalty_Admin", message: expect.stringContaining('the name "Loyalty_Admin" is refused') }]);
  });

  it("does not import a name the catalog holds, nor one twice", () => {
    const doc = (name: string) => `kind: Component\nmetadata: {name: ${name}}\nspec: {type: library, owner: user:ann}\n`;
    const r = mapBackstage(parseCatalogFile("catalog-info.yaml", [doc("checkout-api"), doc("lib-a"), doc("lib-a")].join("---\n")).entities, ctx);
    expect(r.components.map((c) => c.component.metadata.name)).toEqual(["lib-a"]);
    expect(r.failed.map((f) => f.message)).toEqual(["a component named checkout-api is already in the catalog", "another Component of this repository is named lib-a"]);
  });

  it("names who imports when the owner gives no user, and says so", () => {
    const r = mapBackstage(parseCatalogFile("catalog-info.yaml", "apiVersion: backstage.io/v1alpha1\nkind: Component\nmetadata: {name: tool-a}\nspec: {type: cli, owner: platform}\n").entities, ctx);
    expect(r.components[0].component.spec.owners).toEqual([{ user: "olga", group: "platform" }]);
    expect(r.components[0].component.spec.kind).toBe("tooling");
    expect(notesOf(r.unmapped, "component:default/tool-a")).toEqual([expect.stringMatching(/^spec\.owner: the group platform is not described in this repository/)]);
  });

  it("property: every record answered validates against our schema; every Component is answered or failed", () => {
    const name = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/), fc.string({ maxLength: 70 }));
    const anyValue = fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null), fc.array(fc.string({ maxLength: 12 }), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }));
    const entity = fc.record(
      {
        apiVersion: fc.constant("backstage.io/v1alpha1"),
        kind: fc.constantFrom("Component", "API", "System", "Group", "Resource", "Location"),
        metadata: fc.record({ name, title: fc.option(fc.string({ maxLength: 120 }), { nil: undefined }), description: fc.option(anyValue, { nil: undefined }), tags: fc.option(fc.array(fc.string({ maxLength: 10 }), { maxLength: 25 }), { nil: undefined }), links: fc.option(fc.array(fc.record({ url: fc.oneof(fc.webUrl(), fc.string()), title: fc.option(fc.string({ maxLength: 120 }), { nil: undefined }) }), { maxLength: 3 }), { nil: undefined }) }, { requiredKeys: ["name"] }),
        spec: fc.record({
          type: fc.option(fc.constantFrom("service", "website", "library", "openapi", "grpc", "graphql", "team", "other"), { nil: undefined }),
          owner: fc.option(fc.oneof(fc.constantFrom("user:ann", "group:team-a", "team-b", "resource:x"), anyValue), { nil: undefined }),
          lifecycle: fc.option(fc.oneof(fc.constantFrom("production", "experimental"), anyValue), { nil: undefined }),
          system: fc.option(anyValue, { nil: undefined }),
          dependsOn: fc.option(fc.oneof(fc.array(fc.oneof(name, fc.constant("component:default/a-b"))), anyValue), { nil: undefined }),
          providesApis: fc.option(fc.array(name, { maxLength: 3 }), { nil: undefined }),
          consumesApis: fc.option(fc.oneof(fc.array(name, { maxLength: 3 }), anyValue), { nil: undefined }),
          members: fc.option(fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }), { nil: undefined }),
          parent: fc.option(name, { nil: undefined }),
          definition: fc.option(fc.oneof(fc.string({ maxLength: 20 }), fc.record({ $text: fc.string({ maxLength: 20 }) })), { nil: undefined }),
        }),
      },
      { requiredKeys: ["kind", "metadata", "spec"] },
    );
    fc.assert(
      fc.property(fc.array(entity, { maxLength: 8 }), (list) => {
        const parsed = list.map((raw, i) => ({ file: "catalog-info.yaml", document: i + 1, kind: raw.kind.toLowerCase(), ref: parseRef(`${raw.kind.toLowerCase()}:default/${raw.metadata.name}`, "x"), label: `${i}`, raw }));
        const r = mapBackstage(parsed, ctx);
        for (const c of r.components) expect(validateComponent(c.component).ok).toBe(true);
        const components = parsed.filter((p) => p.kind === "component").length;
        expect(r.components.length + r.failed.length).toBe(components);
      }),
      { numRuns: 300 },
    );
  });
});
