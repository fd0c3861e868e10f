// A component's API docs through the route on a real portal: the definition read from the component's repository
// (local provider) at the default branch and at a tag, lint errors with their paths, a missing file or repository,
// a file over the size limit, and an AsyncAPI definition shown raw.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validComponent, yamlOf } from "@/test-support/catalog/temp-catalog";
import { startPortalTest, type PortalTest } from "@/test-support/portal/test-portal";
import { API_DEFINITION_MAX_BYTES, ApiDocsAnswer } from "@/lib/portal/contracts/api-docs";
import { DEMO_CHECKOUT_OPENAPI } from "@/lib/scm/demo";
import type { LocalScmProvider } from "@/lib/scm/local";

const { GET } = await import("./route");

const req = (url: string, headers: Record<string, string>) => new Request(`http://portal.test${url}`, { headers });
const ctx = (name: string, api: string) => ({ params: Promise.resolve({ name, api }) });

const BROKEN_OPENAPI = `openapi: 3.1.0
info:
  title: Checkout API
paths:
  /carts:
    get:
      responses:
        "200":
          description: Carts
          content:
            application/json:
              schema:
                type: strin
        "404":
          $ref: "/etc/passwd"
`;

let portal: PortalTest;
let alice: Record<string, string>;
beforeAll(async () => {
  const checkout = validComponent("checkout-api", {
    providesApis: [
      { name: "checkout", type: "openapi", path: "api/openapi.yaml" },
      { name: "checkout-events", type: "asyncapi", path: "api/asyncapi.yaml" },
      { name: "bulk", type: "openapi", path: "api/bulk.json" },
      { name: "admin", type: "openapi", path: "api/admin.yaml" },
    ],
  });
  const orphan = validComponent("orphan", { providesApis: [{ name: "orphan", type: "openapi", path: "openapi.yaml" }] });
  portal = await startPortalTest({ components: { "checkout-api.yaml": yamlOf(checkout), "orphan.yaml": yamlOf(orphan) } });
  alice = await portal.signIn({ id: "alice", roles: ["engineer"] }, "token");
  const scm = portal.gitops.scm as LocalScmProvider;
  await scm.createRepository("commerce/checkout-api", { description: "Checkout" });
  const big = JSON.stringify({ openapi: "3.1.0", info: { title: "Bulk", version: "1" }, paths: {}, padding: "x".repeat(API_DEFINITION_MAX_BYTES) });
  await scm.commitFiles("commerce/checkout-api", {
    branch: "main",
    message: "APIs",
    files: [
      { path: "api/openapi.yaml", content: DEMO_CHECKOUT_OPENAPI },
      { path: "api/asyncapi.yaml", content: "asyncapi: 3.0.0\ninfo:\n  title: Checkout events\n  version: 1.0.0\n" },
      { path: "api/bulk.json", content: big },
    ],
  });
  await scm.createTag("commerce/checkout-api", { name: "v1.0.0", ref: "main" });
  await scm.commitFiles("commerce/checkout-api", { branch: "main", message: "Break the definition", files: [{ path: "api/openapi.yaml", content: BROKEN_OPENAPI }] });
});
afterAll(async () => portal?.close());

async function docs(name: string, api: string, query = "") {
  const answer = await GET(req(`/api/components/${name}/apis/${api}${query}`, alice), ctx(name, api));
  return { status: answer.status, body: (await answer.json()) as unknown };
}

describe("GET /api/components/:name/apis/:api", () => {
  it("reads the definition at a tag: valid, parsed, with the refs to choose from", async () => {
    const { status, body } = await docs("checkout-api", "checkout", "?ref=v1.0.0");
    expect(status).toBe(200);
    const answer = ApiDocsAnswer.parse(body);
    expect(answer).toMatchObject({ component: "checkout-api", repository: "commerce/checkout-api", ref: "v1.0.0", state: "valid", problems: [], definition: DEMO_CHECKOUT_OPENAPI });
    expect(answer.refs).toEqual([{ name: "main", kind: "branch" }, { name: "v1.0.0", kind: "tag" }]);
    expect(answer.document).toMatchObject({ openapi: "3.1.0", info: { title: "Checkout API" } });
  });

  it("reads the default branch by default: an invalid definition answers each lint error with its path, and follows no external $ref", async () => {
    const answer = ApiDocsAnswer.parse((await docs("checkout-api", "checkout")).body);
    expect(answer).toMatchObject({ ref: "main", state: "invalid", document: null, definition: BROKEN_OPENAPI });
    expect(answer.detail).toMatch(/lint errors/);
    const byPath = Object.fromEntries(answer.problems.map((p) => [p.path, p]));
    expect(byPath["#/info"]).toMatchObject({ rule: "struct", message: expect.stringContaining("version") });
    expect(byPath["#/paths/~1carts/get/responses/200/content/application~1json/schema/type"]).toMatchObject({ rule: "struct" });
    expect(byPath["#/paths/~1carts/get/responses/404"]).toMatchObject({ rule: "no-unresolved-refs", message: expect.stringContaining("not followed") });
    expect(JSON.stringify(answer)).not.toContain("root:");
  });

  it("says when the file is missing at the ref, or the repository does not exist", async () => {
    const missing = ApiDocsAnswer.parse((await docs("checkout-api", "admin")).body);
    expect(missing).toMatchObject({ state: "missing", definition: null, size: null, detail: "There is no file api/admin.yaml in commerce/checkout-api at main." });
    const orphan = ApiDocsAnswer.parse((await docs("orphan", "orphan")).body);
    expect(orphan).toMatchObject({ state: "missing", refs: [], detail: expect.stringContaining("repository commerce/orphan does not exist") });
  });

  it("refuses a definition over the size limit without parsing it", async () => {
    const answer = ApiDocsAnswer.parse((await docs("checkout-api", "bulk")).body);
    expect(answer).toMatchObject({ state: "too-large", definition: null, maxBytes: API_DEFINITION_MAX_BYTES });
    expect(answer.size).toBeGreaterThan(API_DEFINITION_MAX_BYTES);
    expect(answer.detail).toContain("one mebibyte");
  });

  it("shows an AsyncAPI definition raw", async () => {
    const answer = ApiDocsAnswer.parse((await docs("checkout-api", "checkout-events", "?ref=v1.0.0")).body);
    expect(answer).toMatchObject({ state: "raw", document: null, definition: expect.stringContaining("asyncapi: 3.0.0") });
  });

  it("answers 404 for an unknown component, an API the record does not list, and a ref that is neither the default branch nor a tag", async () => {
    expect((await docs("nobody", "checkout")).status).toBe(404);
    const api = await docs("checkout-api", "payments");
    expect(api).toMatchObject({ status: 404, body: { message: "not-found", detail: expect.stringContaining('"payments"') } });
    const ref = await docs("checkout-api", "checkout", "?ref=feature-x");
    expect(ref).toMatchObject({ status: 404, body: { message: "not-found", detail: expect.stringContaining("feature-x") } });
  });
});
