// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { appOrder } from "@/test-support/components/fixtures";
import { LeadQueue } from "./lead-queue";

const order = appOrder();

describe("the leads' queue", () => {
  it("names the order in each decision button, the visible word first", async () => {
    fakeApi({ "GET /api/app-order-requests": { body: { orders: [order, appOrder({ id: "other", name: "payouts" })] } } });
    renderInPortal(<LeadQueue userId="lee" />);
    await screen.findByTestId("queue-order-payouts");
    for (const name of ["Approve order ledger", "Reject order ledger", "Approve order payouts", "Reject order payouts"]) {
      expect(screen.getByRole("button", { name })).toBeTruthy();
    }
    expect(within(screen.getByTestId("queue-order-payouts")).getByText("Approve").textContent).toBe("Approve order payouts");
  });

  it("rejects with a reason: required, checked by the reject schema, sent trimmed", async () => {
    const held = heldAnswer({ body: { ...order, status: "rejected", reason: "Extend the old ledger." } });
    const api = fakeApi({ "GET /api/app-order-requests": { body: { orders: [order] } }, [`POST /api/app-order-requests/${order.id}/reject`]: held.handler });
    const { user } = renderInPortal(<LeadQueue userId="lee" />);
    await user.click(within(await screen.findByTestId("queue-order-ledger")).getByRole("button", { name: "Reject order ledger" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Reject the order" }));
    expect(await within(dialog).findByText("A reason is required.")).toBeTruthy();
    await user.type(within(dialog).getByLabelText("Reason"), "   ");
    await user.click(within(dialog).getByRole("button", { name: "Reject the order" }));
    expect(within(dialog).getByText("A reason is required.")).toBeTruthy();
    expect(api.callsTo("POST", `/api/app-order-requests/${order.id}/reject`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText("Reason"), " Extend the old ledger. ");
    await user.click(within(dialog).getByRole("button", { name: "Reject the order" }));
    expect(((await within(dialog).findByRole("button", { name: "Rejecting…" })) as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect((await screen.findByTestId("queue-result")).textContent).toContain("Rejected ledger; Eng One sees your reason.");
    expect(api.callsTo("POST", `/api/app-order-requests/${order.id}/reject`)[0].json).toEqual({ reason: "Extend the old ledger." });
  });

  it("a reason over the schema's limit is refused with its message", async () => {
    fakeApi({ "GET /api/app-order-requests": { body: { orders: [order] } } });
    const { user } = renderInPortal(<LeadQueue userId="lee" />);
    await user.click(within(await screen.findByTestId("queue-order-ledger")).getByRole("button", { name: "Reject order ledger" }));
    const dialog = screen.getByRole("dialog");
    await user.click(within(dialog).getByLabelText("Reason"));
    await user.paste("x".repeat(2001));
    await user.click(within(dialog).getByRole("button", { name: "Reject the order" }));
    expect(await within(dialog).findByText("keep the reason under 2000 characters")).toBeTruthy();
  });

  it("shows the server's detail when the rejection fails", async () => {
    fakeApi({
      "GET /api/app-order-requests": { body: { orders: [order] } },
      [`POST /api/app-order-requests/${order.id}/reject`]: { status: 409, body: { message: "order-decided", detail: "ledger was already approved by ann." } },
    });
    const { user } = renderInPortal(<LeadQueue userId="lee" />);
    await user.click(within(await screen.findByTestId("queue-order-ledger")).getByRole("button", { name: "Reject order ledger" }));
    const dialog = screen.getByRole("dialog");
    await user.type(within(dialog).getByLabelText("Reason"), "no");
    await user.click(within(dialog).getByRole("button", { name: "Reject the order" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("ledger was already approved by ann.");
  });

  it("approves after asking; the server's detail shows when it cannot", async () => {
    fakeApi({
      "GET /api/app-order-requests": { body: { orders: [order, appOrder({ id: "own", name: "mine", requester: "lee" })] } },
      [`POST /api/app-order-requests/${order.id}/approve`]: { status: 409, body: { message: "not-mergeable", detail: "The merge request cannot be merged: the config repository moved on." } },
    });
    const { user } = renderInPortal(<LeadQueue userId="lee" />);
    // A lead's own order is approved by another lead.
    expect((within(await screen.findByTestId("queue-order-mine")).getByRole("button", { name: "Approve order mine" }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(screen.getByTestId("queue-order-ledger")).getByRole("button", { name: "Approve order ledger" }));
    const dialog = screen.getByRole("dialog");
    expect(dialog.textContent).toContain("merge request !7");
    await user.click(within(dialog).getByRole("button", { name: "Approve and merge" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("The merge request cannot be merged: the config repository moved on.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("says the component is in the catalog once approved", async () => {
    fakeApi({
      "GET /api/app-order-requests": { body: { orders: [order] } },
      [`POST /api/app-order-requests/${order.id}/approve`]: { body: { order: { ...order, status: "approved" }, inCatalog: true } },
    });
    const { user } = renderInPortal(<LeadQueue userId="lee" />);
    await user.click(within(await screen.findByTestId("queue-order-ledger")).getByRole("button", { name: "Approve order ledger" }));
    await user.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Approve and merge" }));
    expect((await screen.findByTestId("queue-result")).textContent).toContain("Approved ledger: the merge request is merged and the component is in the catalog.");
  });
});
