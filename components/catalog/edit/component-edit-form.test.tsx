// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { parse } from "yaml";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import type { Component } from "@/lib/catalog/schema";
import { ComponentEditForm } from "./component-edit-form";

const yaml = `# Admin Console: Support staff's console.
apiVersion: platform.example.com/v1alpha1
kind: Component
metadata:
  name: admin-console
  displayName: "Admin Console"
spec:
  kind: frontend
  repo:
    path: platform/admin-console
  owners:
    - user: erin.schmidt
      group: platform/devex
  environments:
    - dev
    - staging
  runtime:
    k8s:
      namespaces:
        dev: admin-console-dev
        staging: admin-console-stg
      deploymentContractPath: deploy/contract.yaml
`;
const component = parse(yaml) as Component;

function render(onSaved = vi.fn(), { canCommit = true, onProposed = vi.fn() } = {}) {
  const view = renderInPortal(
    <ComponentEditForm name="admin-console" component={component} yaml={yaml} etag='"v1"' canCommit={canCommit} onCancel={() => {}} onSaved={onSaved} onProposed={onProposed} />,
  );
  return { ...view, onSaved, onProposed };
}

const saved = (record: Component) => ({ name: "admin-console", file: "components/admin-console.yaml", component: record, etag: '"v2"', stale: false, yaml: "", favorite: false });

describe("the component record editor", () => {
  it("checks as you type with the catalog's schema; nothing to review until something changes", async () => {
    fakeApi({});
    const { user } = render();
    const review = screen.getByTestId("review-changes") as HTMLButtonElement;
    expect(review.disabled).toBe(true);
    expect(screen.getByText("No changes yet.")).toBeTruthy();
    await user.clear(screen.getByTestId("field-displayName"));
    expect((await screen.findByTestId("edit-issues")).textContent).toBe("1 problem: Display name must not be empty.");
    await user.clear(screen.getByTestId("field-repo"));
    await user.type(screen.getByTestId("field-repo"), "nogroup");
    await waitFor(() => expect(screen.getByTestId("edit-issues").textContent).toContain("2 problems"));
    expect(screen.getByText("repository path must have the form <group>/<project>", { selector: ".ui-field__error" })).toBeTruthy();
    // Review with problems left: nothing to review, focus goes to the first field with a problem.
    expect(review.disabled).toBe(false);
    await user.click(review);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("field-displayName")));
    expect(screen.queryByTestId("yaml-diff")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Remove owner 1" }));
    expect(await screen.findByText("a component needs at least one owner", { selector: ".ui-field__error" })).toBeTruthy();
  });

  it("a namespace follows its environment: unticking staging drops its namespace", async () => {
    const held = heldAnswer({ body: {} });
    const api = fakeApi({ "PUT /api/components/admin-console": held.handler });
    const { user } = render();
    expect((screen.getByLabelText("Namespace (staging)") as HTMLInputElement).value).toBe("admin-console-stg");
    await user.click(screen.getByLabelText("staging"));
    expect(screen.queryByLabelText("Namespace (staging)")).toBeNull();
    await user.click(screen.getByTestId("review-changes"));
    const diff = (await screen.findByTestId("yaml-diff")).textContent ?? "";
    expect(diff).toContain("-     - staging");
    expect(diff).toContain("-         staging: admin-console-stg");
    await user.click(screen.getByTestId("save-component"));
    expect(((await screen.findByRole("button", { name: "Saving…" })) as HTMLButtonElement).disabled).toBe(true);
    const sent = api.callsTo("PUT", "/api/components/admin-console")[0];
    expect(sent.headers["if-match"]).toBe('"v1"');
    expect((sent.json as Component).spec.environments).toEqual(["dev"]);
    expect((sent.json as Component).spec.runtime).toEqual({ k8s: { namespaces: { dev: "admin-console-dev" }, deploymentContractPath: "deploy/contract.yaml" } });
    held.release();
  });

  it("reviews the YAML diff, then commits the record the schema answers (trimmed, empty group left out)", async () => {
    const api = fakeApi({ "PUT /api/components/admin-console": (call) => ({ body: saved(call.json as Component) }) });
    const { user, onSaved } = render();
    await user.clear(screen.getByTestId("field-displayName"));
    await user.type(screen.getByTestId("field-displayName"), "  Admin Console 2 ");
    await user.click(screen.getByRole("button", { name: "Add owner" }));
    await user.type(screen.getByLabelText("Owner 2 user"), "liam.walsh");
    await user.click(screen.getByLabelText("mongo"));
    await user.click(screen.getByTestId("review-changes"));
    const diff = (await screen.findByTestId("yaml-diff")).textContent ?? "";
    expect(diff).toContain('+   displayName: "Admin Console 2"');
    expect(diff).toContain("+     - user: liam.walsh");
    await user.click(screen.getByTestId("save-component"));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const record = api.callsTo("PUT", "/api/components/admin-console")[0].json as Component;
    expect(record.metadata.displayName).toBe("Admin Console 2");
    expect(record.spec.owners).toEqual([{ user: "erin.schmidt", group: "platform/devex" }, { user: "liam.walsh" }]);
    expect(record.spec.dependencies).toEqual({ mongo: true });
  });

  it("says someone else changed the record (412), or shows the server's detail", async () => {
    fakeApi({ "PUT /api/components/admin-console": { status: 412, body: { message: "precondition-failed", detail: "The record changed since it was read." } } });
    const { user } = render();
    await user.type(screen.getByTestId("field-displayName"), "!");
    await user.click(screen.getByTestId("review-changes"));
    await user.click(await screen.findByTestId("save-component"));
    expect((await screen.findByRole("alert")).textContent).toContain("Someone changed this component after you opened it.");
    expect(screen.getByRole("button", { name: "Reload" })).toBeTruthy();
  });

  it("shows the issues a server refusal names", async () => {
    fakeApi({ "PUT /api/components/admin-console": { status: 422, body: { message: "invalid-record", detail: "The record is not valid.", issues: [{ path: ["spec", "repo", "path"], message: "no such repository" }] } } });
    const { user } = render();
    await user.type(screen.getByTestId("field-displayName"), "!");
    await user.click(screen.getByTestId("review-changes"));
    await user.click(await screen.findByTestId("save-component"));
    expect((await screen.findByRole("alert")).textContent?.trim()).toBe("The server refused the record: The record is not valid: spec.repo.path: no such repository");
  });

  it("someone who does not own the component proposes the change instead of committing it", async () => {
    const api = fakeApi({ "PUT /api/components/admin-console": { status: 202, body: { name: "admin-console", reviewUrl: "/reviews/4", mergeRequest: { iid: 4, title: "Record of admin-console", sourceBranch: "portal/admin-console/x", webUrl: null } } } });
    const { user, onSaved, onProposed } = render(vi.fn(), { canCommit: false });
    await user.clear(screen.getByTestId("field-displayName"));
    await user.type(screen.getByTestId("field-displayName"), "Admin Console 2");
    await user.click(screen.getByTestId("review-changes"));
    expect(screen.getByTestId("proposal-note").textContent).toContain("You do not own admin-console");
    expect(screen.queryByRole("button", { name: "Save and commit" })).toBeNull();
    await user.click(screen.getByRole("button", { name: "Propose change" }));
    await waitFor(() => expect(onProposed).toHaveBeenCalledWith(expect.objectContaining({ reviewUrl: "/reviews/4" })));
    expect(onSaved).not.toHaveBeenCalled();
    expect(api.callsTo("PUT", "/api/components/admin-console")[0].json).toMatchObject({ metadata: { displayName: "Admin Console 2" } });
  });

  it("edits description, tags and lifecycle; a bad tag is named at its field", async () => {
    const api = fakeApi({ "PUT /api/components/admin-console": { body: saved(component) } });
    const { user, onSaved } = render();
    await user.type(screen.getByTestId("field-description"), "Support staff's console.");
    await user.type(screen.getByTestId("field-tags"), "support, Internal");
    expect(await screen.findByText(/a tag is lowercase letters/, { selector: ".ui-field__error" })).toBeTruthy();
    await user.clear(screen.getByTestId("field-tags"));
    await user.type(screen.getByTestId("field-tags"), "support, internal");
    await user.selectOptions(screen.getByTestId("field-lifecycle"), "production");
    await user.click(screen.getByTestId("review-changes"));
    await user.click(screen.getByRole("button", { name: "Save and commit" }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const sent = api.callsTo("PUT", "/api/components/admin-console")[0].json as Component;
    expect(sent.metadata).toMatchObject({ description: "Support staff's console.", tags: ["support", "internal"] });
    expect(sent.spec.lifecycle).toBe("production");
    expect(sent.metadata.links).toBeUndefined();
  });

  it("edits relations: names checked as typed, an API added with its type and path, empty ones left out of the record", async () => {
    const held = heldAnswer({ body: {} });
    const api = fakeApi({ "PUT /api/components/admin-console": held.handler });
    const { user } = render();
    await user.type(screen.getByTestId("field-dependsOn"), "checkout-api, Payments");
    await waitFor(() => expect(screen.getByTestId("edit-issues").textContent).toBe("1 problem: Depends on: a component's name must be lowercase letters, digits and hyphens (1–63, no leading or trailing hyphen)"));
    await user.clear(screen.getByTestId("field-dependsOn"));
    await user.type(screen.getByTestId("field-dependsOn"), "checkout-api, payments-gateway");
    await user.type(screen.getByTestId("field-system"), "support");
    await user.click(screen.getByRole("button", { name: "Add API" }));
    await user.type(screen.getByLabelText("API 1 name"), "admin");
    await user.selectOptions(screen.getByLabelText("API 1 type"), "grpc");
    await user.type(screen.getByLabelText("API 1 definition path"), "/abs.proto");
    await waitFor(() => expect(screen.getByTestId("edit-issues").textContent).toContain("API 1 definition path: an API's path is relative"));
    await user.clear(screen.getByLabelText("API 1 definition path"));
    await user.type(screen.getByLabelText("API 1 definition path"), "proto/admin.proto");
    await user.click(screen.getByTestId("review-changes"));
    const diff = (await screen.findByTestId("yaml-diff")).textContent ?? "";
    expect(diff).toContain("+   system: support");
    expect(diff).toContain("+     - payments-gateway");
    expect(diff).not.toContain("consumesApis");
    await user.click(screen.getByTestId("save-component"));
    await waitFor(() => expect(api.callsTo("PUT", "/api/components/admin-console")).toHaveLength(1));
    const sent = api.callsTo("PUT", "/api/components/admin-console")[0].json as Component;
    expect(sent.spec).toMatchObject({ system: "support", dependsOn: ["checkout-api", "payments-gateway"], providesApis: [{ name: "admin", type: "grpc", path: "proto/admin.proto" }] });
    expect("consumesApis" in sent.spec).toBe(false);
  });
});
