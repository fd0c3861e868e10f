// The portal API's OpenAPI document: redocly lint (recommended rules) finds no error; it covers every route
// file of app/api with the schemas the routes parse with, the personal-token scheme and the one error body;
// it is served at /api/openapi.json to a signed-in caller, and the root index links to it.
import { readdirSync } from "node:fs";
import path from "node:path";
import type { OpenAPIV3_1 } from "openapi-types";
import openapiTS, { astToString, COMMENT_HEADER } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statusOf } from "@/lib/portal/http";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { describeProblems, redoclyLint } from "@/test-support/redocly";
import { PORTAL_ENDPOINTS } from "@/lib/catalog/endpoints";
import { EXCLUDED_ROUTE_FILES, portalOpenApiDocument, portalRouteModules } from "./document";
import * as openapiRoute from "./route";
import * as indexRoute from "../route";

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
/** The portal API's types for openapi-fetch, generated from this document (openapi-typescript). */
const PORTAL_CLIENT_TYPES = "lib/portal/contracts/generated/portal-api.d.ts";

function routeFiles(dir = "app/api"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? routeFiles(path.join(dir, entry.name)) : entry.name === "route.ts" ? [path.join(dir, entry.name)] : [],
  );
}
/** app/api/components/[name]/route.ts → /api/components/{name} */
const openApiPath = (file: string) => file.slice("app".length, -"/route.ts".length).replace(/\[(\w+)\]/g, "{$1}") || "/";

describe("the portal OpenAPI document", () => {
  let doc: OpenAPIV3_1.Document;
  beforeAll(async () => {
    doc = await portalOpenApiDocument({ path: "/api/openapi.json", module: openapiRoute });
  });

  it("passes redocly lint (recommended rules) with no error, and no warning but the missing license", async () => {
    const problems = await redoclyLint(doc);
    expect(problems.filter((p) => p.severity === "error"), describeProblems(problems)).toEqual([]);
    expect(problems.map((p) => p.ruleId)).toEqual(["info-license"]);
  });

  it("documents every route file of app/api, each method of it, in both registries (this document's and the root index)", async () => {
    const files = routeFiles().filter((f) => !EXCLUDED_ROUTE_FILES.includes(f));
    expect(files.length).toBeGreaterThan(50);
    const registered = new Set((await portalRouteModules()).map((r) => r.path).concat("/api/openapi.json"));
    const indexed = new Set(Object.values(PORTAL_ENDPOINTS).map((e) => `${e.method} ${e.path}`));
    const missing: string[] = [];
    for (const file of files) {
      const exported = (await import(/* @vite-ignore */ `@/${file.slice(0, -3)}`)) as Record<string, unknown>;
      const methods = Object.keys(exported).filter((name) => ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(name));
      if (!registered.has(openApiPath(file))) missing.push(`${file}: not in app/api/openapi.json/document.ts`);
      for (const method of methods) {
        if (!indexed.has(`${method} ${openApiPath(file).replace(/\{(\w+)\}/g, ":$1")}`)) missing.push(`${file} ${method}: not in lib/catalog/endpoints.ts`);
      }
      const item = doc.paths?.[openApiPath(file)];
      expect(Object.keys(item ?? {}).sort(), file).toEqual(methods.map((m) => m.toLowerCase()).sort());
    }
    expect(missing).toEqual([]);
  });

  it("types every body: each JSON success answer and each request body has a schema, each other answer its content type", () => {
    const untyped: string[] = [];
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) {
        const op = item?.[method];
        if (!op) continue;
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          if (Number(status) >= 400) continue;
          const content = (response as OpenAPIV3_1.ResponseObject).content;
          // Only an answer without a body (304 Not Modified) has no content.
          if (!content) {
            if (status !== "304") untyped.push(`${method} ${p} ${status}`);
            continue;
          }
          for (const [type, media] of Object.entries(content)) if (!media.schema || !Object.keys(media.schema).length) untyped.push(`${method} ${p} ${status} ${type}`);
        }
        // JSON, or the fields of a multipart form (an upload larger than a JSON body may be).
        const requestContent = (op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content;
        const body = requestContent?.["application/json"]?.schema ?? requestContent?.["multipart/form-data"]?.schema;
        if (op.requestBody && (!body || !Object.keys(body).length)) untyped.push(`${method} ${p} request body`);
      }
    }
    expect(untyped).toEqual([]);
  });

  it("gives every operation the index's name and summary, a security requirement, and the one error body at each code's status", () => {
    const operations = Object.entries(doc.paths ?? {}).flatMap(([p, item]) => METHODS.filter((m) => item?.[m]).map((m) => ({ path: p, method: m, op: item![m]! })));
    expect(new Set(operations.map((o) => o.op.operationId)).size).toBe(operations.length);
    // The error body is written once; each error answer is a shared response naming the codes of its status.
    const errorBody = doc.components?.schemas?.PortalError as OpenAPIV3_1.SchemaObject;
    expect(errorBody.required).toEqual(["message", "detail"]);
    expect(Object.keys(errorBody.properties ?? {})).toEqual(expect.arrayContaining(["message", "detail", "issues"]));
    expect([...((errorBody.properties!.message as OpenAPIV3_1.SchemaObject).enum ?? [])].sort()).toEqual(Object.keys(statusOf).sort());
    const answered = new Set<string>();
    for (const { path: p, method, op } of operations) {
      const where = `${method} ${p}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.security, where).toBeDefined();
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (Number(status) < 400) continue;
        const { $ref } = response as OpenAPIV3_1.ReferenceObject;
        expect($ref, `${where} ${status}`).toMatch(/^#\/components\/responses\//);
        const name = $ref.slice("#/components/responses/".length);
        answered.add(name);
        const schema = (doc.components?.responses?.[name] as OpenAPIV3_1.ResponseObject).content?.["application/json"]?.schema as OpenAPIV3_1.SchemaObject;
        const [body, these] = schema.allOf as OpenAPIV3_1.SchemaObject[];
        expect(body, where).toEqual({ $ref: "#/components/schemas/PortalError" });
        const codes = (these.properties!.message as OpenAPIV3_1.SchemaObject).enum as Array<keyof typeof statusOf>;
        expect(codes.length, where).toBeGreaterThan(0);
        for (const code of codes) expect(statusOf[code], `${where} ${code}`).toBe(Number(status));
      }
    }
    expect(Object.keys(doc.components?.responses ?? {}).sort()).toEqual([...answered].sort());
    // An operation's own codes, not every code of its status: a stale If-Match is the only 412 of an edit.
    const stale = doc.paths?.["/api/components/{name}"]?.put?.responses?.["412"] as OpenAPIV3_1.ReferenceObject;
    expect(stale.$ref).toBe("#/components/responses/Error412.precondition-failed");
    const conflicts = doc.paths?.["/api/merge-requests/{id}/merge"]?.post?.responses?.["409"] as OpenAPIV3_1.ReferenceObject;
    expect(conflicts.$ref).toContain(".merge-conflict");
    const components = doc.paths?.["/api/components/{name}"];
    expect(components?.put?.security).toEqual([{ personalToken: [] }, { session: [] }]);
    expect(Object.keys(components?.put?.responses ?? {})).toEqual(expect.arrayContaining(["200", "202", "401", "403", "404", "409", "412", "413", "422", "428", "503"]));
    expect(doc.paths?.["/api/tokens"]?.post?.security).toEqual([{ session: [] }]);
    expect(doc.paths?.["/api/auth/logout"]?.post?.security).toEqual([]);
    expect(doc.components?.securitySchemes?.personalToken).toMatchObject({ type: "http", scheme: "bearer" });
  });
});

describe("the generated portal client types", () => {
  it("are the committed ones (npm run openapi regenerates them)", async () => {
    const doc = await portalOpenApiDocument({ path: "/api/openapi.json", module: openapiRoute });
    const types = COMMENT_HEADER + astToString(await openapiTS(doc as never, { silent: true }));
    await expect(types).toMatchFileSnapshot(path.resolve(PORTAL_CLIENT_TYPES));
  });
});

describe("request bodies in the portal OpenAPI document", () => {
  it("say additionalProperties: false on every object of the portal's own bodies (an unknown key is refused)", async () => {
    const doc = await portalOpenApiDocument({ path: "/api/openapi.json", module: openapiRoute });
    const loose: string[] = [];
    const walk = (schema: unknown, where: string) => {
      if (Array.isArray(schema)) return schema.forEach((s, i) => walk(s, `${where}[${i}]`));
      if (!schema || typeof schema !== "object") return;
      const node = schema as Record<string, unknown>;
      if (node.type === "object" && node.properties && node.additionalProperties !== false) loose.push(where);
      for (const [key, child] of Object.entries(node)) walk(child, `${where}.${key}`);
    };
    let bodies = 0;
    for (const [p, item] of Object.entries(doc.paths ?? {})) {
      // The offers service's contract (lib/offers/contract/) decides its bodies; a component record is the catalog's.
      if (p.startsWith("/api/offers/") || p === "/api/components/{name}") continue;
      for (const method of METHODS) {
        const body = (item?.[method]?.requestBody as OpenAPIV3_1.RequestBodyObject | undefined)?.content?.["application/json"]?.schema;
        if (!body) continue;
        bodies++;
        walk(body, `${method} ${p}`);
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(8);
    expect(loose).toEqual([]);
  });
});

describe("GET /api/openapi.json", () => {
  let portal: PortalTest;
  beforeAll(async () => {
    portal = await startPortalTest();
  });
  afterAll(async () => portal?.close());

  it("serves the document to a caller with a personal API token, and the root index links to it", async () => {
    const headers = await portal.signIn({ id: "script", roles: ["engineer"] }, "token");
    const served = await openapiRoute.GET(new Request("http://portal.test/api/openapi.json", { headers }));
    expect(served.status).toBe(200);
    const body = await served.json();
    expect(body).toMatchObject({ openapi: "3.1.0", info: { title: "Platform portal API" } });
    expect(Object.keys(body.paths)).toContain("/api/components/{name}/config");

    expect((await openapiRoute.GET(new Request("http://portal.test/api/openapi.json"))).status).toBe(401);
    const index = await (await indexRoute.GET(new Request("http://portal.test/api", { headers }))).json();
    expect(index.endpoints.openapi).toEqual({ method: "GET", path: "/api/openapi.json", description: expect.stringContaining("OpenAPI") });
  });
});
