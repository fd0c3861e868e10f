// A component's API docs through the GitLab adapter (the fake GitLab server over real bare repositories): the same
// reads as the local provider's (app/api/components/[name]/apis/[api]/route.integration.test.ts), at the default
// branch and at a tag, through the provider interface only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { GitLabScmProvider } from "@/lib/scm/gitlab";
import { DEMO_CHECKOUT_OPENAPI } from "@/lib/scm/demo";
import { startFakeGitLab, type FakeGitLab } from "@/test-support/scm/fake-gitlab";
import { validComponent } from "@/test-support/catalog/temp-catalog";
import { readApiDocs } from "./api-docs";

const component = validComponent("checkout-api", {
  providesApis: [
    { name: "checkout", type: "openapi", path: "api/openapi.yaml" },
    { name: "admin", type: "openapi", path: "api/admin.yaml" },
  ],
});

let root: string;
let fake: FakeGitLab;
let gitlab: GitLabScmProvider;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), "api-docs-gitlab-"));
  fake = await startFakeGitLab({ root, token: "secret-token" });
  gitlab = new GitLabScmProvider({ baseUrl: fake.url, token: "secret-token", sleep: async () => undefined });
  await fake.backend.createRepository("commerce/checkout-api", { description: "Checkout" });
  await fake.backend.commitFiles("commerce/checkout-api", { branch: "main", message: "API", files: [{ path: "api/openapi.yaml", content: DEMO_CHECKOUT_OPENAPI }] });
  await fake.backend.createTag("commerce/checkout-api", { name: "v1.0.0", ref: "main" });
  await fake.backend.commitFiles("commerce/checkout-api", { branch: "main", message: "Drop info.version", files: [{ path: "api/openapi.yaml", content: DEMO_CHECKOUT_OPENAPI.replace("  version: 1.0.0\n", "") }] });
});
afterAll(async () => {
  await fake?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

describe("readApiDocs on GitLab", () => {
  it("reads the tag as released (valid) and the default branch as it is now (a lint error at #/info)", async () => {
    const released = await readApiDocs(gitlab, "checkout-api", component, "checkout", "v1.0.0");
    expect(released).toMatchObject({ ref: "v1.0.0", state: "valid", refs: [{ name: "main", kind: "branch" }, { name: "v1.0.0", kind: "tag" }] });
    const now = await readApiDocs(gitlab, "checkout-api", component, "checkout");
    expect(now).toMatchObject({ ref: "main", state: "invalid" });
    expect(now.problems).toEqual([expect.objectContaining({ path: "#/info", rule: "struct" })]);
  });

  it("says a file is missing", async () => {
    expect(await readApiDocs(gitlab, "checkout-api", component, "admin", "v1.0.0")).toMatchObject({ state: "missing", detail: "There is no file api/admin.yaml in commerce/checkout-api at v1.0.0." });
  });
});
