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

describe("the audit log's address", () => {
  it("keeps the filters in the address: a shared link opens filtered, back and forward follow", async () => {
    const api = fakeApi({ "GET /api/audit": (call) => ({ body: { entries: [entry(2, query(call.url).actor ? `by ${query(call.url).actor}` : "newest")], nextBefore: null } }) });
    const from = new Date("2026-11-20T09:30").toISOString();
    const { user, router, location } = renderInPortal(<AuditBrowser />, { url: `/audit?actor=olga&action=order&from=${encodeURIComponent(from)}` });
    // A shared link: the form and the first request hold its filters.
    expect(await screen.findByText("by olga")).toBeTruthy();
    expect(query(api.calls[0]!.url)).toEqual({ actor: "olga", action: "order", from, limit: "50" });
    expect((screen.getByLabelText("Actor") as HTMLInputElement).value).toBe("olga");
    expect((screen.getByLabelText("From") as HTMLInputElement).value).toBe("2026-11-20T09:30");

    await user.clear(screen.getByLabelText("Actor"));
    await user.type(screen.getByLabelText("Actor"), "ivan");
    await user.click(screen.getByRole("button", { name: "Filter" }));
    expect(await screen.findByText("by ivan")).toBeTruthy();
    expect(router.push).toHaveBeenLastCalledWith(`/audit?actor=ivan&action=order&from=${encodeURIComponent(from)}`, { scroll: false });
    expect(location()).toBe(`/audit?actor=ivan&action=order&from=${encodeURIComponent(from)}`);

    // Back: the address the page was at before, and its filters.
    router.push("/audit?actor=olga");
    await waitFor(() => expect((screen.getByLabelText("Actor") as HTMLInputElement).value).toBe("olga"));
    expect(await screen.findByText("by olga")).toBeTruthy();
    expect((screen.getByLabelText("Action") as HTMLSelectElement).value).toBe("");

    await user.click(screen.getByRole("button", { name: "Clear" }));
    await waitFor(() => expect(location()).toBe("/audit"));
  });
});
