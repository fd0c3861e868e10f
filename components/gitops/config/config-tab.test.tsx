// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import type { ConfigValues } from "@/lib/portal/gitops/config-values";
import { ConfigTab } from "./config-tab";

const envs = ["dev", "staging"];
const answer = (view: "current" | "persistent", values: Record<string, ConfigValues>) => ({
  body: {
    name: "cart",
    view,
    file: "config/cart/{environment}.yaml",
    environments: envs.map((environment) => ({ environment, values: values[environment] ?? {}, drift: [], source: view === "current" ? "release" : null, updatedBy: "olga", updatedAt: "2026-11-20T10:00:00Z" })),
  },
});

function api(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    "GET /api/components/cart/config": (call) => (call.url.includes("view=current") ? answer("current", { dev: { LOG_LEVEL: "info" } }) : answer("persistent", { dev: { LOG_LEVEL: "info", WORKERS: 2 } })),
    ...extra,
  });
}

const render = (canOperate = false, canCommit = canOperate) => renderInPortal(<ConfigTab name="cart" environments={envs} canOperate={canOperate} canCommit={canCommit} onShowMergeRequests={() => {}} />);

describe("the config editor of one environment", () => {
  it("names each problem against its row, as you type, and keeps the preview shut until none is left", async () => {
    api();
    const { user } = render();
    await user.click(await screen.findByTestId("edit-config"));
    const preview = screen.getByTestId("preview-config") as HTMLButtonElement;
    expect(preview.disabled).toBe(true);
    expect(screen.getByText("No changes yet.")).toBeTruthy();

    await user.click(screen.getByTestId("add-key"));
    await user.type(screen.getByLabelText("Key 3"), "WORKERS");
    await user.type(screen.getByLabelText("Value 3"), "x");
    expect((await screen.findByTestId("config-issues")).textContent).toBe('The key "WORKERS" appears twice; each key can be set once.');
    expect(screen.getByLabelText("Key 3").getAttribute("aria-invalid")).toBe("true");
    // Renaming the first row clears the problem of the other one.
    await user.clear(screen.getByLabelText("Key 2"));
    await user.type(screen.getByLabelText("Key 2"), "THREADS");
    await waitFor(() => expect(screen.queryByTestId("config-issues")).toBeNull());
    expect(screen.getByLabelText("Key 3").getAttribute("aria-invalid")).toBeNull();

    await user.selectOptions(screen.getByLabelText("Type 3"), "number");
    expect((await screen.findByTestId("config-issues")).textContent).toBe('The value of "WORKERS" is not a number.');
    expect(preview.disabled).toBe(true);
    await user.clear(screen.getByLabelText("Value 3"));
    await user.type(screen.getByLabelText("Value 3"), "1x");
    await user.clear(screen.getByLabelText("Key 3"));
    await user.type(screen.getByLabelText("Key 3"), "1x");
    expect((await screen.findByTestId("config-issues")).textContent).toBe(
      'The key "1x" cannot be used: a key begins with a letter or an underscore, and holds only letters, digits, underscores, dots and hyphens.',
    );
  });

  it("says a key too long in words, quoting only its start, and each problem on a line of its own", async () => {
    api();
    const { user } = render();
    await user.click(await screen.findByTestId("edit-config"));
    await user.click(screen.getByTestId("add-key"));
    await user.click(screen.getByLabelText("Key 3"));
    await user.paste(`K${"k".repeat(2999)}`);
    await user.type(screen.getByLabelText("Value 3"), "on");
    const issues = await screen.findByTestId("config-issues");
    expect(issues.textContent).toBe(`The key "K${"k".repeat(39)}…" has 3,000 characters; a key can have at most 128.`);
    // A second problem: both show, one a line.
    await user.clear(screen.getByLabelText("Key 2"));
    await user.type(screen.getByLabelText("Value 2"), "!");
    await waitFor(() => expect(within(screen.getByTestId("config-issues")).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Every value needs a key: type one, or remove the row.", expect.stringMatching(/^The key "Kkk/)]));
    // No message names a field by its code name or shows a pattern.
    expect(screen.getByTestId("config-issues").textContent).not.toMatch(/entries|\[|\^|\$/);
  });

  it("previews the change, then opens a merge request with exactly that patch", async () => {
    const fake = api({
      "POST /api/components/cart/config": {
        status: 202,
        body: { mode: "merge_request", view: "persistent", environments: { dev: {} }, mergeRequest: { iid: 4, title: "Config of cart: dev", sourceBranch: "portal/cart/1", targetBranch: "main", webUrl: null } },
      },
    });
    const { user } = render();
    await user.click(await screen.findByTestId("edit-config"));
    expect(screen.getByTestId("merge-request-note").textContent).toContain("config/cart/dev.yaml");
    await user.click(screen.getByRole("button", { name: "Remove WORKERS" }));
    await user.click(screen.getByTestId("add-key"));
    await user.type(screen.getByLabelText("Key 2"), "FEATURE_X");
    await user.selectOptions(screen.getByLabelText("Type 2"), "boolean");
    // Turned into true/false, a value starts as false.
    expect((screen.getByLabelText("Value 2") as HTMLSelectElement).value).toBe("false");
    await user.selectOptions(screen.getByLabelText("Value 2"), "true");
    await user.click(screen.getByTestId("preview-config"));
    const changes = await screen.findByTestId("config-preview");
    expect([...changes.querySelectorAll("li")].map((li) => li.textContent)).toEqual(["+ FEATURE_X: true", "- WORKERS: 2"]);
    await user.click(screen.getByTestId("save-config"));
    expect((await screen.findByTestId("config-outcome")).textContent).toContain("Merge request !4 opened");
    expect(fake.callsTo("POST", "/api/components/cart/config")[0].json).toEqual({ environment: "dev", values: { FEATURE_X: true, WORKERS: null }, view: "persistent" });
  });

  it("an owner who is not an operator commits persistent values, without the live target", async () => {
    const fake = api({ "POST /api/components/cart/config": { body: { mode: "commit", view: "persistent", commit: "a".repeat(40), changed: true, environments: { dev: { WORKERS: 3 } } } } });
    const { user } = render(false, true);
    await user.click(await screen.findByTestId("edit-config"));
    expect(screen.getByTestId("commit-note").textContent).toContain("You own this component");
    expect(screen.queryByTestId("merge-request-note")).toBeNull();
    await user.clear(screen.getByLabelText("Value 1"));
    await user.type(screen.getByLabelText("Value 1"), "3");
    await user.click(screen.getByTestId("preview-config"));
    expect(screen.getByTestId("save-config").textContent).toBe("Commit");
    await user.click(screen.getByTestId("save-config"));
    await waitFor(() => expect(fake.callsTo("POST", "/api/components/cart/config")).toHaveLength(1));
    expect(fake.callsTo("POST", "/api/components/cart/config")[0].json).toMatchObject({ view: "persistent" });
  });

  it("shows the server's detail when saving fails, and the pending state while it runs", async () => {
    const held = heldAnswer({ status: 409, body: { message: "conflict", detail: "The config repository moved on; reload and edit again." } });
    api({ "POST /api/components/cart/config": held.handler });
    const { user } = render(true);
    await user.click(await screen.findByTestId("edit-config"));
    await user.clear(screen.getByLabelText("Value 1"));
    await user.type(screen.getByLabelText("Value 1"), "debug");
    await user.click(screen.getByTestId("preview-config"));
    expect((await screen.findByTestId("save-config")).textContent).toBe("Commit");
    await user.click(screen.getByTestId("save-config"));
    expect(((await screen.findByRole("button", { name: "Saving…" })) as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect((await screen.findByRole("alert")).textContent).toBe("Not saved: The config repository moved on; reload and edit again.");
    // Editing again takes the preview and the message away.
    await user.type(screen.getByLabelText("Value 1"), "!");
    await waitFor(() => expect(screen.queryByTestId("config-preview-panel")).toBeNull());
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("lets operators change the live values instead", async () => {
    const fake = api({ "POST /api/components/cart/config": { body: { mode: "current", view: "current", changed: true, environments: { dev: { LOG_LEVEL: "warn" } } } } });
    const { user } = render(true);
    await user.click(await screen.findByTestId("edit-config"));
    await user.click(within(screen.getByRole("group", { name: "Change" })).getByRole("button", { name: "current (live now)" }));
    // Starts from the live values: LOG_LEVEL only.
    expect(screen.queryByLabelText("Key 2")).toBeNull();
    await user.clear(screen.getByLabelText("Value 1"));
    await user.type(screen.getByLabelText("Value 1"), "warn");
    await user.click(screen.getByTestId("preview-config"));
    expect((await screen.findByTestId("save-config")).textContent).toBe("Apply live");
    await user.click(screen.getByTestId("save-config"));
    expect((await screen.findByTestId("config-outcome")).textContent).toContain("Live values of dev changed");
    expect(fake.callsTo("POST", "/api/components/cart/config")[0].json).toEqual({ environment: "dev", values: { LOG_LEVEL: "warn" }, view: "current" });
  });
});

describe("the bulk config editor", () => {
  it("checks every cell, then commits every environment that changes together", async () => {
    const fake = api({ "POST /api/components/cart/config/bulk": { body: { mode: "commit", view: "persistent", commit: "0123456789abcdef", changed: true, environments: { dev: {}, staging: {} } } } });
    const { user } = render(true);
    await user.click(await screen.findByTestId("bulk-edit-config"));
    await user.click(screen.getByTestId("bulk-add-key"));
    await user.type(screen.getByLabelText("Bulk key 3"), "REGION");
    await user.type(screen.getByLabelText("REGION in dev"), "eu-west");
    await user.type(screen.getByLabelText("REGION in staging"), "eu-west");
    await user.type(screen.getByLabelText("WORKERS in dev"), "x");
    expect((await screen.findByTestId("bulk-issues")).textContent).toBe('In dev, the value of "WORKERS" is not a number.');
    expect((screen.getByTestId("preview-bulk") as HTMLButtonElement).disabled).toBe(true);
    await user.clear(screen.getByLabelText("WORKERS in dev"));
    await user.type(screen.getByLabelText("WORKERS in dev"), "3");
    await user.click(screen.getByRole("button", { name: "Set WORKERS in staging" }));
    await user.click(screen.getByTestId("preview-bulk"));
    const preview = await screen.findByTestId("bulk-preview");
    expect(preview.textContent).toContain('+ REGION: "eu-west"');
    expect(preview.textContent).toContain("~ WORKERS: 2 → 3");
    await user.click(screen.getByTestId("save-bulk"));
    expect((await screen.findByTestId("config-outcome")).textContent).toContain("Committed 01234567");
    expect(fake.callsTo("POST", "/api/components/cart/config/bulk")[0].json).toEqual({
      updates: [
        { environment: "dev", values: { REGION: "eu-west", WORKERS: 3 } },
        { environment: "staging", values: { REGION: "eu-west", WORKERS: 0 } },
      ],
      view: "persistent",
    });
  });

  it("says nothing was saved, with the server's detail, when the commit fails", async () => {
    api({ "POST /api/components/cart/config/bulk": { status: 422, body: { message: "invalid-config", detail: "the config update is not valid; nothing was written", issues: [{ path: ["updates", "1", "values", "REGION"], message: "too long" }] } } });
    const { user } = render(true);
    await user.click(await screen.findByTestId("bulk-edit-config"));
    await user.click(screen.getByRole("button", { name: "Set LOG_LEVEL in staging" }));
    await user.type(screen.getByLabelText("LOG_LEVEL in staging"), "warn");
    await user.click(screen.getByTestId("preview-bulk"));
    await user.click(await screen.findByTestId("save-bulk"));
    expect((await screen.findByRole("alert")).textContent).toBe("Nothing was saved: the config update is not valid; nothing was written: updates[1].values.REGION: too long");
  });
});
