// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import { fakeApi, renderInPortal } from "@/test-support/components/render";
import type { AuditEntry } from "@/lib/portal/audit-shapes";
import { AuditBrowser } from "./audit-browser";

const entry = (id: number, summary: string): AuditEntry => ({
  id,
  at: "2026-11-20T10:00:00.000Z",
  actor: "olga",
  actorName: "Olga",
  action: "order.approve",
  targetType: "order",
  target: "ledger",
  component: "ledger",
  summary,
  before: null,
  after: null,
  requestId: `req-${id}`,
});

const query = (url: string) => Object.fromEntries(new URL(url, "http://x").searchParams);

describe("the audit log's filters", () => {
  it("sends the filters as GET /api/audit's query, and pages back with before", async () => {
    const api = fakeApi({
      "GET /api/audit": (call) => {
        const q = query(call.url);
        if (q.before) return { body: { entries: [entry(1, "older one")], nextBefore: null } };
        return { body: { entries: [entry(2, q.actor ? `by ${q.actor}` : "newest")], nextBefore: 2 } };
      },
    });
    const { user } = renderInPortal(<AuditBrowser />);
    expect(await screen.findByText("newest")).toBeTruthy();
    expect(query(api.calls[0].url)).toEqual({ limit: "50" });

    await user.type(screen.getByLabelText("Actor"), "  olga ");
    await user.selectOptions(screen.getByLabelText("Action"), "order");
    await user.type(screen.getByLabelText("From"), "2026-11-20T09:30");
    await user.click(screen.getByRole("button", { name: "Filter" }));
    expect(await screen.findByText("by olga")).toBeTruthy();
    expect(query(api.calls.at(-1)!.url)).toEqual({ actor: "olga", action: "order", from: new Date("2026-11-20T09:30").toISOString(), limit: "50" });

    await user.click(screen.getByRole("button", { name: "Older entries" }));
    expect(await screen.findByText("older one")).toBeTruthy();
    expect(query(api.calls.at(-1)!.url)).toMatchObject({ actor: "olga", before: "2" });

    await user.click(screen.getByRole("button", { name: "Clear" }));
    await waitFor(() => expect(query(api.calls.at(-1)!.url)).toEqual({ limit: "50" }));
    expect((screen.getByLabelText("Actor") as HTMLInputElement).value).toBe("");
  });

  it("refuses what the filter schema refuses, before asking", async () => {
    const api = fakeApi({ "GET /api/audit": { body: { entries: [], nextBefore: null } } });
    const { user } = renderInPortal(<AuditBrowser />);
    await screen.findByText("No entries match.");
    await user.click(screen.getByLabelText("Actor"));
    await user.paste("a".repeat(201));
    await user.click(screen.getByRole("button", { name: "Filter" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/200/);
    expect(api.calls).toHaveLength(1);
  });

  it("says the actor filter's limit as a sentence, with how long the text is, and asks nothing", async () => {
    const api = fakeApi({ "GET /api/audit": { body: { entries: [], nextBefore: null } } });
    const { user } = renderInPortal(<AuditBrowser />);
    await screen.findByText("No entries match.");
    await user.click(screen.getByLabelText("Actor"));
    await user.paste("a".repeat(10_000));
    await user.click(screen.getByRole("button", { name: "Filter" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Actor can be at most 200 characters; this one has 10,000.");
    expect(api.calls).toHaveLength(1);
  });

  it("shows the server's detail when the log cannot be read", async () => {
    fakeApi({ "GET /api/audit": { status: 403, body: { message: "forbidden", detail: "The audit log needs the admin role." } } });
    renderInPortal(<AuditBrowser />);
    expect((await screen.findByRole("alert")).textContent).toBe("The audit log needs the admin role.");
  });
});
