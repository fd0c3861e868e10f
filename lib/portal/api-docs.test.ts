// The lint of a component's OpenAPI definition: the demo repositories' definitions pass it, and an external $ref
// (a file of the portal's disk, an address on the network) is reported, never loaded.
import { describe, expect, it } from "vitest";
import { DEMO_REPOSITORIES } from "@/lib/scm/demo";
import { lintOpenApi } from "./api-docs";

const definitions = DEMO_REPOSITORIES.flatMap((repo) =>
  repo.commits.flatMap((c) => c.files.filter((f) => /openapi\.(ya?ml|json)$|offers\.json$/.test(f.path)).map((f) => [`${repo.path}/${f.path} (${c.message})`, f.content ?? ""] as const)),
);

describe("lintOpenApi", () => {
  it.each(definitions)("finds no error in the demo definition %s", async (where, text) => {
    expect(await lintOpenApi(text, where)).toEqual([]);
  });

  it("reports an external $ref without loading it", async () => {
    const text = JSON.stringify({
      openapi: "3.1.0",
      info: { title: "x", version: "1" },
      paths: { "/a": { get: { responses: { "200": { $ref: "file:///etc/hostname" }, "404": { $ref: "http://127.0.0.1:9/x.yaml" } } } } },
    });
    const problems = await lintOpenApi(text, "commerce/x/openapi.json");
    expect(problems.map((p) => [p.path, p.rule])).toEqual([
      ["#/paths/~1a/get/responses/200", "no-unresolved-refs"],
      ["#/paths/~1a/get/responses/404", "no-unresolved-refs"],
    ]);
    for (const p of problems) expect(p.message).toContain("not followed");
  });
});
