/**
 * The sender against a receiver on loopback that closes kept-alive connections as a real server's
 * keep-alive timeout does: an attempt that meets a connection closed while idle is sent again on a
 * new one (the receiver got nothing), while a connection that fails on its first request is a failure.
 */
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSender, type Sender } from "./sender";

const LOOPBACK = { allowPrivate: true } as const;

/**
 * A receiver speaking just enough HTTP/1.1: each connection answers its first request with `status`
 * and keeps the connection open; a second request on the same connection is met with a reset, as
 * when the server closed the idle socket while the request was on its way. `resetFirst` resets
 * every connection at its first request instead.
 */
async function startClosingReceiver(status: number, options: { resetFirst?: boolean } = {}) {
  const answered: string[] = [];
  const connections = new Set<net.Socket>();
  let connected = 0;
  const server = net.createServer((socket) => {
    connected += 1;
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    let requests = 0;
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const id = /webhook-id: (\S+)/i.exec(buffer.slice(0, end))?.[1] ?? "";
      buffer = buffer.slice(end + 4 + length);
      requests += 1;
      if (options.resetFirst || requests > 1) {
        socket.resetAndDestroy();
        return;
      }
      answered.push(id);
      socket.write(`HTTP/1.1 ${status} X\r\ncontent-length: 0\r\nconnection: keep-alive\r\n\r\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    answered,
    connections: () => connected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of connections) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const message = (id: string) => ({ id, body: JSON.stringify({ type: "reward.granted" }), timestamp: new Date() });

describe("webhook sender and kept-alive connections", () => {
  let sender: Sender | undefined;
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    sender?.close();
    await close?.();
  });

  it("sends an attempt again on a new connection when the kept-alive one was closed while idle, and logs the receiver's answer", async () => {
    const receiver = await startClosingReceiver(500);
    close = receiver.close;
    sender = createSender({ policy: LOOPBACK, timeoutMs: 5_000 });
    const first = await sender.send(receiver.url, ["whsec_c2VjcmV0"], message("msg_1"));
    expect(first).toMatchObject({ ok: false, statusCode: 500, error: "HTTP 500" });
    // The retry reuses the idle connection, which the receiver resets: it is sent once more, on a new one.
    const retry = await sender.send(receiver.url, ["whsec_c2VjcmV0"], message("msg_1"));
    expect(retry).toMatchObject({ ok: false, statusCode: 500, error: "HTTP 500" });
    expect(receiver.answered).toEqual(["msg_1", "msg_1"]);
    expect(receiver.connections()).toBe(2);
  });

  it("logs a reset as a failure when it comes on a new connection, without sending again", async () => {
    const receiver = await startClosingReceiver(200, { resetFirst: true });
    close = receiver.close;
    sender = createSender({ policy: LOOPBACK, timeoutMs: 5_000 });
    const result = await sender.send(receiver.url, ["whsec_c2VjcmV0"], message("msg_2"));
    expect(result).toMatchObject({ ok: false, statusCode: null, error: "connection reset" });
    expect(receiver.connections()).toBe(1);
  });
});
