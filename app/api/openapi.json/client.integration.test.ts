// A script using the portal API through openapi-fetch and the types generated from the portal's OpenAPI
// document (lib/portal/contracts/generated): it reads a component, stars it and edits it with If-Match,
// and what comes back is what the types say. The route handlers answer in place of a server.
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import type { operations, paths } from "@/lib/portal/contracts/generated/portal-api";
import type { RouteContext } from "@/lib/portal/http";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { portalRouteModules } from "./document";

/** Serves a request with the route module its path names, as Next's router would. */
async function portalFetch(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  for (const { path, module } of await portalRouteModules()) {
    const names: string[] = [];
    const pattern = new RegExp(`^${path.replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), "([^/]+)"))}$`);
    const match = pattern.exec(pathname);
    const handler = match && (module[request.method] as ((r: Request, c: RouteContext) => Promise<Response>) | undefined);
    if (!handler) continue;
    return handler(request, { params: Promise.resolve(Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)]))) });
  }
  return new Response(null, { status: 404 });
}

describe("a script on the generated portal client (openapi-fetch)", () => {
  let portal: PortalTest;
  let olga: Record<string, string>;
  beforeAll(async () => {
    portal = await startPortalTest({ components: { "alpha.yaml": yamlOf(validComponent("alpha"), "alpha") } });
    olga = await portal.signIn({ id: "olga", roles: ["engineer", "operator"] }, "token");
  });
  afterAll(() => portal?.close());

  const client = () => createClient<paths>({ baseUrl: "http://portal.test", headers: olga, fetch: portalFetch });

  it("reads, stars and edits a component, each answer typed as the route declares it", async () => {
    const api = client();
    const read = await api.GET("/api/components/{name}", { params: { path: { name: "alpha" } } });
    expect(read.response.status).toBe(200);
    // Typed: canCommit and staleReason are in the answer's type (and the value).
    const { canCommit, staleReason, etag, component } = read.data!;
    expect({ canCommit, staleReason }).toEqual({ canCommit: true, staleReason: null });

    const starred = await api.POST("/api/components/{name}/favorite", { params: { path: { name: "alpha" } } });
    expect(starred.data).toEqual({ name: "alpha", favorite: true, changed: true });

    const renamed = { ...component, metadata: { ...component.metadata, displayName: "Alpha, renamed" } };
    const saved = await api.PUT("/api/components/{name}", { params: { path: { name: "alpha" }, header: { "if-match": etag } }, body: renamed });
    expect(saved.response.status).toBe(200);
    expect(saved.data).toMatchObject({ changed: true, component: { metadata: { displayName: "Alpha, renamed" } } });

    // The same If-Match again is stale: the error is the one error body, its code typed.
    const stale = await api.PUT("/api/components/{name}", { params: { path: { name: "alpha" }, header: { "if-match": etag } }, body: renamed });
    expect(stale.response.status).toBe(412);
    const code: string | undefined = stale.error?.message;
    expect(code).toBe("precondition-failed");
  });

  it("types each error answer with the codes that operation answers with its status (npm run typecheck holds it)", () => {
    type Body<Op extends keyof operations, Status extends keyof operations[Op]["responses"]> = operations[Op]["responses"][Status] extends { content: { "application/json": infer B } } ? B : never;
    expectTypeOf<Body<"componentReplace", 412>["message"]>().toEqualTypeOf<"precondition-failed">();
    expectTypeOf<Body<"mergeRequestMerge", 409>["message"]>().toEqualTypeOf<"conflict" | "merge-conflict" | "merge-request-decided" | "order-merge-request">();
    // The rest of the body is the one error body's.
    expectTypeOf<Body<"mergeRequestMerge", 409>["detail"]>().toEqualTypeOf<string>();
    expectTypeOf<Body<"componentReplace", 403>["requiredRole"]>().toEqualTypeOf<string | undefined>();
  });

  it("lists components and merge requests with the query parameters the document names", async () => {
    const api = client();
    const list = await api.GET("/api/components", { params: { query: { q: "alpha", pageSize: 10 } } });
    expect(list.data?.items.map((item) => item.name)).toEqual(["alpha"]);
    const reviews = await api.GET("/api/merge-requests", { params: { query: { state: "opened" } } });
    expect(reviews.data).toEqual({ count: 0, mergeRequests: [] });
  });
});
