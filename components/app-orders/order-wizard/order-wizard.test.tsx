// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { appOrder } from "@/test-support/components/fixtures";
import { OrderWizard } from "./order-wizard";

async function fillBasics(user: ReturnType<typeof renderInPortal>["user"], name = "ledger") {
  await user.type(screen.getByTestId("order-name"), name);
  await user.type(screen.getByTestId("order-displayName"), "Ledger");
  await user.type(screen.getByTestId("order-repoPath"), `commerce/${name}`);
}

const heading = () => screen.getAllByRole("heading", { level: 2 })[0].textContent;

describe("the order wizard", () => {
  it("checks as you type with the catalog's schema, and keeps the step until it is right", async () => {
    fakeApi({});
    const { user } = renderInPortal(<OrderWizard userId="eng1" />);
    await user.type(screen.getByTestId("order-name"), "Not Valid");
    expect(await screen.findByText(/^Name must be lowercase letters, digits and hyphens/)).toBeTruthy();
    await user.clear(screen.getByTestId("order-name"));
    await user.type(screen.getByTestId("order-name"), "ledger");
    await waitFor(() => expect(screen.queryByText(/Name must be lowercase letters/)).toBeNull());
    await user.type(screen.getByTestId("order-repoPath"), "nogroup");
    expect(await screen.findByText(/Repository path must have the form <group>\/<project>/)).toBeTruthy();

    // Next checks every field of the step, touched or not.
    await user.click(screen.getByTestId("order-next"));
    expect(await screen.findByText("Display name must not be empty.")).toBeTruthy();
    expect(heading()).toBe("Basics");
  });

  it("sends the order the form stands for, with a live YAML preview", async () => {
    const api = fakeApi({ "POST /api/app-order-requests": { status: 201, body: appOrder() } });
    const { user } = renderInPortal(<OrderWizard userId="eng1" />);
    await fillBasics(user);
    await user.click(screen.getByRole("button", { name: "Add an owner" }));
    expect(screen.getByTestId("order-preview").textContent).toContain("name: ledger");
    await user.click(screen.getByTestId("order-next"));
    await screen.findByText("Environments and resources");
    await user.click(screen.getByLabelText("MongoDB"));
    await user.click(screen.getByLabelText("sandbox"));
    await user.click(screen.getByLabelText("production"));
    expect(screen.getByTestId("order-preview").textContent).toContain("mongo: true");
    const next = screen.getByTestId("order-next");
    await user.click(next);
    expect(screen.getByTestId("order-resources").textContent).toContain("MongoDB in dev");
    // The button under the pointer must not turn into the submit button: a browser would then send
    // the order on the click that only meant to reach the review.
    expect(next.isConnected && next.getAttribute("type") === "submit").toBe(false);
    expect(api.callsTo("POST", "/api/app-order-requests")).toHaveLength(0);
    await user.click(screen.getByTestId("order-submit"));
    expect((await screen.findByTestId("order-created")).textContent).toContain("merge request !7");
    expect(api.callsTo("POST", "/api/app-order-requests")[0].json).toEqual({
      name: "ledger",
      displayName: "Ledger",
      kind: "service",
      repoPath: "commerce/ledger",
      // The blank owner added above is left out.
      owners: [{ user: "eng1" }],
      environments: ["dev", "staging", "sandbox"],
      dependencies: { mongo: true },
    });

    // Another order starts from the first step, the name fields empty.
    await user.click(screen.getByRole("button", { name: "Order another app" }));
    expect((screen.getByTestId("order-name") as HTMLInputElement).value).toBe("");
  });

  it("asks for a library's registry", async () => {
    fakeApi({});
    const { user } = renderInPortal(<OrderWizard userId="eng1" />);
    await fillBasics(user, "ledger-lib");
    await user.selectOptions(screen.getByTestId("order-kind"), "library");
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-next"));
    expect(await screen.findByText("Default registry must not be empty.")).toBeTruthy();
    await user.type(screen.getByLabelText("Default registry"), "npm.example.com");
    await user.click(screen.getByTestId("order-next"));
    expect(heading()).toBe("Review");
  });

  it("puts the server's refusal of the name next to the name", async () => {
    fakeApi({ "POST /api/app-order-requests": { status: 409, body: { message: "name-taken", detail: "ledger is already in the catalog" } } });
    const { user } = renderInPortal(<OrderWizard userId="eng1" />);
    await fillBasics(user);
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-submit"));
    expect(await screen.findByText("ledger is already in the catalog")).toBeTruthy();
    expect(heading()).toBe("Basics");
  });

  it("puts the server's issues next to their fields", async () => {
    fakeApi({ "POST /api/app-order-requests": { status: 422, body: { message: "invalid-record", detail: "the order is not valid", issues: [{ path: ["spec", "repo", "path"], message: "no such repository" }] } } });
    const { user } = renderInPortal(<OrderWizard userId="eng1" />);
    await fillBasics(user);
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-submit"));
    expect(await screen.findByText("no such repository")).toBeTruthy();
    expect(heading()).toBe("Basics");
  });

  it("shows the server's detail on a failure, and the pending state while sending", async () => {
    const held = heldAnswer({ status: 503, body: { message: "database-unavailable", detail: "The portal database is not answering; try again in a few seconds." } });
    fakeApi({ "POST /api/app-order-requests": held.handler });
    const { user } = renderInPortal(<OrderWizard userId="eng1" />);
    await fillBasics(user);
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-next"));
    await user.click(screen.getByTestId("order-submit"));
    const pending = await screen.findByRole("button", { name: "Sending…" });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect((await screen.findByRole("alert")).textContent).toBe("The portal database is not answering; try again in a few seconds.");
    expect(heading()).toBe("Review");
  });
});
