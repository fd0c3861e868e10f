// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeApi, heldAnswer, renderInPortal } from "@/test-support/components/render";
import { OffersEnvironmentProvider } from "@/components/offers-environment/offers-environment";
import { WebhooksConsole } from "./webhooks-console";

const BASE = "/api/offers/games/demo-game/webhooks";
const endpoint = {
  endpointId: "ep_1",
  gameId: "demo-game",
  url: "https://game.example.com/hooks",
  description: "EU servers",
  eventTypes: ["reward.granted"],
  enabled: true,
  previousSecretExpiresAt: null,
  createdAt: "2026-11-25T10:00:00.000Z",
  updatedAt: "2026-11-25T10:00:00.000Z",
  etag: '"ep1-a"',
};
const stats = { lagSeconds: 125, oldestUndeliveredAt: "2026-11-25T10:00:00.000Z", pending: 2, failed: 1 };
const delivered = {
  deliveryId: 7,
  endpointId: "ep_1",
  url: endpoint.url,
  messageId: "evt_abc",
  eventType: "reward.granted",
  status: "delivered",
  playerId: "demo-player-2",
  rewards: [{ kind: "trust_points", rewardId: "tp", name: "Trust points", amount: 10 }],
  attempts: 2,
  nextAttemptAt: null,
  lastStatusCode: 200,
  lastError: null,
  lastLatencyMs: 12,
  eventAt: "2026-11-25T10:00:00.000Z",
  deliveredAt: "2026-11-25T10:00:05.000Z",
  failedAt: null,
  attemptLog: [
    { at: "2026-11-25T10:00:05.000Z", statusCode: 200, error: null, latencyMs: 12 },
    { at: "2026-11-25T10:00:00.000Z", statusCode: 500, error: null, latencyMs: 30 },
  ],
};
const failed = { ...delivered, deliveryId: 6, messageId: "evt_old", status: "failed", attempts: 12, lastStatusCode: null, lastError: "connection refused", lastLatencyMs: 1, deliveredAt: null, failedAt: "2026-11-25T09:00:00.000Z", attemptLog: [] };

function api(extra: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({
    [`GET ${BASE}`]: { body: { endpoints: [endpoint], stats } },
    [`GET ${BASE}/deliveries`]: { body: { deliveries: [delivered, failed], nextBefore: null } },
    ...extra,
  });
}

describe("reward webhooks console", () => {
  it("shows the delivery figures, the endpoints and the log with attempts, status codes and latency", async () => {
    api();
    renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    expect((await screen.findByTestId("delivery-lag")).textContent).toBe("2 min 5 s");
    expect(screen.getByTestId("dead-letters").textContent).toBe("1");
    expect(screen.getByTestId("deliveries-pending").textContent).toBe("2");
    const row = within(screen.getByTestId("webhook-endpoints")).getByTestId("webhook-endpoint");
    expect(row.textContent).toContain("https://game.example.com/hooks");
    expect(within(row).getByTestId("endpoint-status").textContent).toBe("Enabled");

    const log = await screen.findByTestId("delivery-log");
    const [first, second] = within(log).getAllByTestId("delivery");
    expect(first!.textContent).toContain("reward.granted: 10 Trust points to demo-player-2");
    expect(within(first!).getByTestId("delivery-status").textContent).toBe("Delivered");
    expect(within(first!).getByTestId("delivery-answer").textContent).toBe("HTTP 200 in 12 ms");
    expect(within(first!).getByTestId("delivery-attempts").textContent).toBe("2");
    expect(first!.textContent).toContain("HTTP 500 · 30 ms");
    expect(within(second!).getByTestId("delivery-status").textContent).toBe("Failed");
    expect(within(second!).getByTestId("delivery-answer").textContent).toBe("connection refused in 1 ms");
  });

  it("says the endpoint URL's limit where it is typed and keeps the whole URL (no silent cut), asking nothing", async () => {
    const calls = api();
    const { user } = renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    const url = (await screen.findByLabelText("Endpoint URL")) as HTMLInputElement;
    expect(screen.getByText(/At most 2,048 characters\./)).toBeTruthy();
    const long = `https://game.example.com/${"a".repeat(9_997)}`;
    expect(long).toHaveLength(10_022);
    await user.click(url);
    await user.paste(long);
    expect(url.value).toHaveLength(10_022);
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    expect((await screen.findAllByRole("alert")).map((a) => a.textContent)).toContain("The endpoint URL can be at most 2,048 characters; this one has 10,022.");
    expect(calls.callsTo("POST", `${BASE}/endpoints`)).toHaveLength(0);
  });

  it("adds an endpoint and shows its signing secret once; a refused URL says why", async () => {
    const calls = api({
      [`POST ${BASE}/endpoints`]: (call) =>
        (call.json as { url: string }).url.includes("127.0.0.1")
          ? { status: 400, body: { message: "webhook-url-not-allowed", detail: "the offers service refuses this URL: it reaches a loopback or private address" } }
          : { status: 201, body: { ...endpoint, endpointId: "ep_2", url: "https://new.example.com/hooks", secret: "whsec_c2VjcmV0" } },
    });
    const { user } = renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    const url = await screen.findByLabelText("Endpoint URL");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    expect((await screen.findAllByRole("alert")).map((a) => a.textContent)).toContain("Enter the URL of your game server's webhook.");
    await user.type(url, "ftp://x.example.com");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    expect(await screen.findByText("The endpoint URL must be an http:// or https:// URL.")).toBeTruthy();
    expect(calls.callsTo("POST", `${BASE}/endpoints`)).toHaveLength(0);

    await user.clear(url);
    await user.type(url, "http://127.0.0.1:9/x");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    expect(await screen.findByText("the offers service refuses this URL: it reaches a loopback or private address")).toBeTruthy();

    await user.clear(url);
    await user.type(url, "https://new.example.com/hooks");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByTestId("signing-secret").textContent).toBe("whsec_c2VjcmV0");
    expect(calls.callsTo("POST", `${BASE}/endpoints`).at(-1)!.json).toEqual({ url: "https://new.example.com/hooks", description: "", eventTypes: ["reward.granted"] });
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("disables an endpoint, rotates its secret, sends a test event and replays a delivery", async () => {
    const calls = api({
      [`PATCH ${BASE}/endpoints/ep_1`]: { body: { ...endpoint, enabled: false, etag: '"ep1-b"' } },
      [`POST ${BASE}/endpoints/ep_1/rotate-secret`]: { body: { endpointId: "ep_1", secret: "whsec_bmV3", previousSecretExpiresAt: "2026-11-26T10:00:00.000Z", etag: '"ep1-c"' } },
      [`POST ${BASE}/endpoints/ep_1/test`]: { status: 202, body: { messageId: "msg_test", deliveryId: 9 } },
      [`POST ${BASE}/deliveries/6/replay`]: { status: 202, body: { replayed: 1 } },
    });
    const { user } = renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    await user.click(await screen.findByRole("button", { name: "Disable" }));
    expect(await screen.findByText("https://game.example.com/hooks is disabled.")).toBeTruthy();
    expect(calls.callsTo("PATCH", `${BASE}/endpoints/ep_1`)[0]!.json).toEqual({ enabled: false });
    // Each change names the endpoint as listed: its ETag as If-Match.
    expect(calls.callsTo("PATCH", `${BASE}/endpoints/ep_1`)[0]!.headers["if-match"]).toBe('"ep1-a"');

    await user.click(screen.getByRole("button", { name: "Rotate secret" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByTestId("signing-secret").textContent).toBe("whsec_bmV3");
    expect(dialog.textContent).toContain("keeps signing beside it until");
    expect(calls.callsTo("POST", `${BASE}/endpoints/ep_1/rotate-secret`)[0]!.headers["if-match"]).toBe('"ep1-a"');
    await user.click(within(dialog).getByRole("button", { name: "Done" }));

    await user.click(screen.getByRole("button", { name: "Send test event" }));
    expect(await screen.findByText(/Test event msg_test queued/)).toBeTruthy();

    const failedRow = (await screen.findAllByTestId("delivery")).find((r) => r.dataset.messageId === "evt_old")!;
    await user.click(within(failedRow).getByRole("button", { name: "Replay" }));
    expect(await screen.findByText("Delivery 6 queued again with the same webhook-id.")).toBeTruthy();
  });

  it("deletes an endpoint after a confirmation, the button disabled while the call is in flight", async () => {
    const held = heldAnswer({ body: { endpointId: "ep_1", deleted: true } });
    const calls = api({ [`DELETE ${BASE}/endpoints/ep_1`]: held.handler });
    const { user } = renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    const row = within(await screen.findByTestId("webhook-endpoints")).getByTestId("webhook-endpoint");
    await user.click(within(row).getByRole("button", { name: "Delete" }));
    let dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("https://game.example.com/hooks stops receiving events");
    // Cancel sends nothing.
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.callsTo("DELETE", `${BASE}/endpoints/ep_1`)).toEqual([]);

    await user.click(within(row).getByRole("button", { name: "Delete" }));
    dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Delete endpoint" }));
    const pending = await within(dialog).findByRole("button", { name: "Deleting…" });
    expect((pending as HTMLButtonElement).disabled).toBe(true);
    expect((within(dialog).getByRole("button", { name: "Cancel" }) as HTMLButtonElement).disabled).toBe(true);
    held.release();
    expect(await screen.findByText("https://game.example.com/hooks was deleted.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.callsTo("DELETE", `${BASE}/endpoints/ep_1`)).toHaveLength(1);
    expect(calls.callsTo("DELETE", `${BASE}/endpoints/ep_1`)[0]!.headers["if-match"]).toBe('"ep1-a"');
  });

  it("says when someone changed the endpoint since the page was opened (412), shows their change and retries with its new ETag", async () => {
    // Someone else changed the description: the list read again answers it with its new ETag.
    const theirs = { ...endpoint, description: "Changed by someone else", etag: '"ep1-theirs"' };
    let reads = 0;
    const calls = api({
      [`GET ${BASE}`]: () => ({ body: { endpoints: [reads++ === 0 ? endpoint : theirs], stats } }),
      [`DELETE ${BASE}/endpoints/ep_1`]: (call) =>
        call.headers["if-match"] === theirs.etag
          ? { body: { endpointId: "ep_1", deleted: true } }
          : { status: 412, body: { message: "precondition-failed", detail: "someone else changed this since you loaded it", etag: theirs.etag } },
    });
    const { user } = renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    const row = within(await screen.findByTestId("webhook-endpoints")).getByTestId("webhook-endpoint");
    await user.click(within(row).getByRole("button", { name: "Delete" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Delete endpoint" }));
    expect(await within(dialog).findByText("Someone changed this endpoint since you opened the page; the list now shows their change. Try again if you still want to.")).toBeTruthy();
    expect(await screen.findByText("Changed by someone else")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Delete endpoint" }));
    expect(await screen.findByText("https://game.example.com/hooks was deleted.")).toBeTruthy();
    expect(calls.callsTo("DELETE", `${BASE}/endpoints/ep_1`).map((c) => c.headers["if-match"])).toEqual(['"ep1-a"', '"ep1-theirs"']);
  });

  it("replays the failed deliveries of a time range, sent as instants", async () => {
    const calls = api({ [`POST ${BASE}/replay`]: { status: 202, body: { replayed: 3 } } });
    const { user } = renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    const from = await screen.findByLabelText("From");
    await user.clear(from);
    await user.type(from, "2026-11-20T08:00");
    const to = screen.getByLabelText("To");
    await user.clear(to);
    await user.type(to, "2026-11-19T08:00");
    await user.click(screen.getByRole("button", { name: "Replay failed" }));
    expect(await screen.findByText("Pick a time after From.")).toBeTruthy();
    await user.clear(to);
    await user.type(to, "2026-11-21T08:00");
    await user.selectOptions(screen.getByLabelText("Endpoint"), "ep_1");
    await user.click(screen.getByRole("button", { name: "Replay failed" }));
    expect(await screen.findByText("3 failed deliveries queued again.")).toBeTruthy();
    expect(calls.callsTo("POST", `${BASE}/replay`)[0]!.json).toEqual({
      from: new Date("2026-11-20T08:00").toISOString(),
      to: new Date("2026-11-21T08:00").toISOString(),
      endpointId: "ep_1",
    });
  });

  it("says so when the game is unknown to the offers service", async () => {
    fakeApi({ [`GET ${BASE}`]: { status: 404, body: { message: "game-not-found", detail: "no such game in the offers service" } } });
    renderInPortal(<WebhooksConsole gameId="demo-game" refreshMs={false} />);
    expect((await screen.findByRole("alert")).textContent).toBe("The offers service has no game “demo-game”.");
  });

  it("in the test environment, reads and changes the test environment's endpoints and keeps env=test in its links", async () => {
    const calls = api({
      [`POST ${BASE}/endpoints`]: { status: 201, body: { ...endpoint, endpointId: "ep_2", url: "https://test.example.com/hooks", secret: "whsec_dGVzdA" } },
      [`PATCH ${BASE}/endpoints/ep_1`]: { body: { ...endpoint, enabled: false, etag: '"ep1-b"' } },
    });
    const { user } = renderInPortal(
      <OffersEnvironmentProvider withSwitch>
        <WebhooksConsole gameId="demo-game" refreshMs={false} />
      </OffersEnvironmentProvider>,
      { url: "/live-ops/demo-game/webhooks?env=test" },
    );
    expect(screen.getByTestId("environment-label").textContent).toBe("Test environment");
    expect(screen.getByRole("link", { name: "Live ops · demo-game" }).getAttribute("href")).toBe("/live-ops/demo-game?env=test");
    await user.click(await screen.findByRole("button", { name: "Disable" }));
    await user.type(screen.getByLabelText("Endpoint URL"), "https://test.example.com/hooks");
    await user.click(screen.getByRole("button", { name: "Add endpoint" }));
    expect(await screen.findByRole("dialog")).toBeTruthy();
    expect(calls.callsTo("PATCH", `${BASE}/endpoints/ep_1`)).toHaveLength(1);
    expect(calls.callsTo("POST", `${BASE}/endpoints`)).toHaveLength(1);
    expect(calls.calls.length).toBeGreaterThan(3);
    for (const call of calls.calls) expect(call.url, `${call.method} ${call.url}`).toContain("environment=test");
  });
});
