// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import type { Release } from "@/lib/portal/gitops/releases";
import { ReleasesTab } from "./releases-tab";

const release = (environment: "staging" | "production", version: string, patch: Partial<Release> = {}): Release => ({
  id: `${environment}-${version}`,
  component: "checkout-api",
  environment,
  version,
  tag: `v${version}`,
  commitSha: "0123456789abcdef0123",
  sourceRef: "main",
  releaseType: environment === "staging" ? "minor" : "promote",
  releasedBy: "olga",
  releasedAt: "2026-11-20T10:00:00Z",
  config: {},
  configCommit: null,
  ...patch,
});

const render = () => renderInPortal(<ReleasesTab name="checkout-api" repository="commerce/checkout-api" environments={["dev", "staging", "production"]} canOperate />);

describe("the release dialogs", () => {
  it("releases to staging: the version it will tag follows the type; the source is trimmed", async () => {
    const held = heldAnswer({ status: 201, body: release("staging", "1.0.0", { tag: "v1.0.0", releaseType: "major" }) });
    const api = fakeApi({ "GET /api/components/checkout-api/releases": { body: { releases: [release("staging", "0.1.0")] } }, "POST /api/components/checkout-api/releases": held.handler });
    const { user } = render();
    await user.click(await screen.findByTestId("release-staging"));
    const dialog = screen.getByRole("dialog");
    expect(screen.getByTestId("next-version").textContent).toBe("v0.2.0");
    // The release model cuts minor or major versions only; the dialog says there is no patch release.
    expect(screen.getAllByRole("option").map((o) => o.getAttribute("value"))).toEqual(["minor", "major"]);
    expect(screen.getByRole("dialog").textContent).toContain("No patch releases: the release API cuts minor or major versions only, so a fix ships as the next minor.");
    await user.selectOptions(screen.getByTestId("release-type"), "major");
    expect(screen.getByTestId("next-version").textContent).toBe("v1.0.0");
    await user.type(within(dialog).getByLabelText("Source"), "  release/1.x ");
    await user.click(screen.getByTestId("confirm-release"));
    expect((await screen.findByTestId("release-progress")).textContent).toContain("tagging a new major version of commerce/checkout-api at release/1.x");
    expect((screen.getByTestId("release-staging") as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect((await screen.findByTestId("release-outcome")).textContent).toContain("Released 1.0.0 to staging");
    expect(api.callsTo("POST", "/api/components/checkout-api/releases")[0].json).toEqual({ environment: "staging", releaseType: "major", sourceRef: "release/1.x" });
  });

  it("refuses a source longer than the schema allows, and sends nothing", async () => {
    const api = fakeApi({ "GET /api/components/checkout-api/releases": { body: { releases: [] } } });
    const { user } = render();
    await user.click(await screen.findByTestId("release-staging"));
    await user.click(within(screen.getByRole("dialog")).getByLabelText("Source"));
    await user.paste("b".repeat(201));
    await user.click(screen.getByTestId("confirm-release"));
    expect(await screen.findByText("The source can be at most 200 characters; this one has 201.")).toBeTruthy();
    expect(api.callsTo("POST", "/api/components/checkout-api/releases")).toHaveLength(0);
  });

  it("shows the server's detail when a release fails", async () => {
    fakeApi({
      "GET /api/components/checkout-api/releases": { body: { releases: [] } },
      "POST /api/components/checkout-api/releases": { status: 422, body: { message: "not-releasable", detail: '"no-such-branch" names no branch, tag or commit' } },
    });
    const { user } = render();
    await user.click(await screen.findByTestId("release-staging"));
    await user.type(within(screen.getByRole("dialog")).getByLabelText("Source"), "no-such-branch");
    await user.click(screen.getByTestId("confirm-release"));
    expect((await screen.findByTestId("release-error")).textContent).toBe('Release failed: "no-such-branch" names no branch, tag or commit');
  });

  it("promotes the latest staging version, never the one production runs", async () => {
    const api = fakeApi({
      "GET /api/components/checkout-api/releases": { body: { releases: [release("staging", "0.2.0"), release("staging", "0.1.0"), release("production", "0.2.0")] } },
      "POST /api/components/checkout-api/releases": { status: 201, body: release("production", "0.1.0") },
    });
    const { user } = render();
    await user.click(await screen.findByTestId("promote-production"));
    expect((screen.getByTestId("promote-version") as HTMLSelectElement).value).toBe("0.2.0");
    expect((screen.getByTestId("confirm-promote") as HTMLButtonElement).disabled).toBe(true);
    await user.selectOptions(screen.getByTestId("promote-version"), "0.1.0");
    await user.click(screen.getByTestId("confirm-promote"));
    expect((await screen.findByTestId("release-outcome")).textContent).toContain("Promoted 0.1.0 to production");
    expect(api.callsTo("POST", "/api/components/checkout-api/releases")[0].json).toEqual({ environment: "production", sourceRef: "0.1.0" });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });
});
