// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal, type FakeCall } from "@/test-support/components/render";
import { ImportWizard } from "./import-wizard";

const repo = (path: string, inCatalog: string | null = null) => ({ path, name: path.split("/")[1], owner: "growth", description: "", defaultBranch: "main", webUrl: null, inCatalog });

/** A dry run infers the record; the kind asked for wins. */
function preview(call: FakeCall) {
  const [request] = (call.json as { repositories: Array<string | { path: string; kind: string }> }).repositories;
  const path = typeof request === "string" ? request : request.path;
  const kind = typeof request === "string" ? "service" : request.kind;
  const name = path.split("/")[1];
  return {
    body: {
      commit: null,
      mergeRequest: null,
      results: [
        {
          repository: path,
          status: "ready",
          name,
          kind,
          inferredKind: "service",
          reasons: kind === "service" ? ["a Dockerfile"] : [`kind set to ${kind} at review (inferred service)`],
          message: "",
          component: { spec: { owners: [{ user: "bob", group: "growth" }], environments: kind === "service" ? ["dev", "staging"] : [] } },
        },
      ],
    },
  };
}

function api(items: ReturnType<typeof repo>[], importAnswer: Parameters<typeof fakeApi>[0][string] = { status: 201, body: {} }) {
  const imports: FakeCall[] = [];
  const fake = fakeApi({
    "GET /api/import/owners": { body: { owners: [{ path: "growth", kind: "group" }] } },
    "GET /api/import/repositories": (call) => {
      const search = new URL(call.url, "http://x").searchParams.get("search") ?? "";
      return { body: { items: items.filter((r) => r.path.includes(search)), nextPage: null } };
    },
    "POST /api/import/components": async (call) => {
      if ((call.json as { dryRun?: boolean }).dryRun) return preview(call);
      imports.push(call);
      return typeof importAnswer === "function" ? importAnswer(call) : importAnswer;
    },
  });
  return { ...fake, imports };
}

describe("the import wizard", () => {
  it("picks repositories across searches, reviews their records with a chosen kind, and imports exactly that", async () => {
    const fake = api([repo("growth/quest-engine"), repo("growth/rewards-dashboard", "rewards-dashboard"), repo("growth/ads-api")], {
      status: 201,
      body: { commit: "abcdef0123456789", mergeRequest: null, results: [{ repository: "growth/quest-engine", status: "imported", name: "quest-engine" }, { repository: "growth/ads-api", status: "imported", name: "ads-api" }] },
    });
    const { user } = renderInPortal(<ImportWizard canOperate />);
    await user.click(await screen.findByTestId("owner-growth"));
    expect((within(await screen.findByTestId("repo-growth/rewards-dashboard")).getByRole("checkbox") as HTMLInputElement).disabled).toBe(true);
    await user.click(screen.getByRole("checkbox", { name: "growth/ads-api" }));
    await user.type(screen.getByTestId("repository-search"), "quest");
    await waitFor(() => expect(screen.queryByTestId("repo-growth/ads-api")).toBeNull());
    await user.click(await screen.findByRole("checkbox", { name: "growth/quest-engine" }));
    expect(screen.getByTestId("review-import").textContent).toBe("Review 2 repositories");
    await user.click(screen.getByTestId("review-import"));

    const review = await screen.findByTestId("review-growth/quest-engine");
    expect((await within(review).findByTestId("kind-growth/quest-engine") as HTMLSelectElement).value).toBe("service");
    await user.selectOptions(screen.getByTestId("kind-growth/quest-engine"), "docs");
    expect(await within(review).findByText("kind set to docs at review (inferred service)")).toBeTruthy();
    await screen.findByText("2 of 2 ready to import.", { exact: false });
    await user.click(screen.getByTestId("start-import"));

    expect((await screen.findByTestId("import-summary")).textContent).toContain("Committed abcdef01");
    expect(within(screen.getByTestId("result-growth/quest-engine")).getByRole("link").textContent).toBe("Open quest-engine in the catalog");
    expect(fake.imports.map((c) => c.json)).toEqual([{ repositories: ["growth/ads-api", { path: "growth/quest-engine", kind: "docs" }] }]);
  });

  it("refuses more repositories than one import takes, with the schema's message", async () => {
    const many = Array.from({ length: 51 }, (_, i) => repo(`growth/repo-${i}`));
    const fake = api(many);
    const { user } = renderInPortal(<ImportWizard canOperate={false} />);
    await user.click(await screen.findByTestId("owner-growth"));
    await user.click(await screen.findByRole("button", { name: "Select all shown" }));
    await user.click(screen.getByTestId("review-import"));
    expect(await screen.findByText("You can import at most 50 repositories at once: import the rest in a second round.")).toBeTruthy();
    expect(screen.queryByTestId("import-review")).toBeNull();
    // Dropping one is enough.
    await user.click(screen.getByRole("checkbox", { name: "growth/repo-7" }));
    await waitFor(() => expect(screen.queryByText(/at most 50 repositories/)).toBeNull());
    expect(fake.imports).toHaveLength(0);
  });

  it("shows the server's detail when the import fails, and what runs while it runs", async () => {
    const held = heldAnswer({ status: 503, body: { message: "database-unavailable", detail: "The portal database is not answering; try again in a few seconds." } });
    api([repo("growth/quest-engine")], held.handler);
    const { user } = renderInPortal(<ImportWizard canOperate />);
    await user.click(await screen.findByTestId("owner-growth"));
    await user.click(await screen.findByRole("checkbox", { name: "growth/quest-engine" }));
    await user.click(screen.getByTestId("review-import"));
    await screen.findByText("1 of 1 ready to import.", { exact: false });
    await user.click(screen.getByTestId("start-import"));
    expect((await screen.findByTestId("result-growth/quest-engine")).textContent).toContain("importing…");
    expect((screen.getByRole("button", { name: "Import more" }) as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect((await screen.findByTestId("import-error")).textContent).toContain("Nothing was imported: The portal database is not answering; try again in a few seconds.");
  });

  it("reads Backstage's catalog-info.yaml: a record per Component, the fields that did not map, then one merge request", async () => {
    const loyalty = { component: { spec: { owners: [{ user: "bob", group: "growth/loyalty-team" }], environments: ["dev"], system: "loyalty", providesApis: [{ name: "points", type: "openapi", path: "api/openapi.yaml" }] } } };
    const results = [
      { repository: "growth/loyalty", entity: "component:default/loyalty-points", status: "ready", name: "loyalty-points", kind: "service", inferredKind: null, reasons: [], message: "", ...loyalty },
      { repository: "growth/loyalty", entity: "component:default/Bad_Name", status: "failed", name: "Bad_Name", kind: null, inferredKind: null, reasons: [], message: 'the name "Bad_Name" is refused' },
    ];
    const unmapped = [{ repository: "growth/loyalty", entity: "api:default/events", field: "spec.definition", message: "the definition is inline (40 characters)" }];
    const imports: FakeCall[] = [];
    fakeApi({
      "GET /api/import/owners": { body: { owners: [{ path: "growth", kind: "group" }] } },
      "GET /api/import/repositories": { body: { items: [repo("growth/loyalty")], nextPage: null } },
      "POST /api/import/components": (call) => {
        if ((call.json as { dryRun?: boolean }).dryRun) return { body: { commit: null, mergeRequest: null, results, unmapped } };
        imports.push(call);
        return { status: 202, body: { commit: null, mergeRequest: { iid: 7, title: "Import", sourceBranch: "portal/import/x", webUrl: null }, results: [{ ...results[0], status: "proposed" }, results[1]], unmapped } };
      },
    });
    const { user } = renderInPortal(<ImportWizard canOperate />);
    await user.click(await screen.findByTestId("format-backstage"));
    expect(screen.getByTestId("import-mode").textContent).toContain("one merge request is opened, for everyone");
    await user.click(await screen.findByTestId("owner-growth"));
    await user.click(await screen.findByRole("checkbox", { name: "growth/loyalty" }));
    await user.click(screen.getByTestId("review-import"));

    const record = await screen.findByTestId("review-loyalty-points");
    expect(record.textContent).toContain("System: loyalty");
    expect(record.textContent).toContain("Provides: points (openapi, api/openapi.yaml)");
    expect((await screen.findByTestId("review-Bad_Name")).textContent).toContain('the name "Bad_Name" is refused');
    const report = await screen.findByTestId("import-unmapped");
    expect(within(report).getByText("the definition is inline (40 characters)")).toBeTruthy();
    expect(screen.getByTestId("start-import").textContent).toBe("Open the merge request (1 component)");
    await user.click(screen.getByTestId("start-import"));

    expect((await screen.findByTestId("import-summary")).textContent).toContain("Merge request !7 opened");
    expect(screen.getByTestId("import-summary").textContent).toContain("Its description lists what did not map from Backstage (1 field).");
    expect(screen.getByTestId("result-loyalty-points").textContent).toContain("proposed");
    expect(imports.map((c) => c.json)).toEqual([{ repositories: ["growth/loyalty"], format: "backstage" }]);
  });
});
