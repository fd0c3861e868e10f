import { connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { startOffersTestApp } from "@/test-support/offers/test-app";

/** A client connection and everything the server sends on it until it closes. */
async function client(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk) => chunks.push(chunk));
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8"))));
  await new Promise((resolve) => socket.once("connect", resolve));
  return { socket, closed };
}

describe("closing the offers service", () => {
  it("closes connections that never sent a byte, which node:http's close would wait for, and still answers a request that had begun", { timeout: 30_000 }, async () => {
    const ctx = await startOffersTestApp("pglite");
    await ctx.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (ctx.app.server.address() as AddressInfo).port;
    // A browser's preconnect, or an HTTP client's spare connection: open, silent, never closed by its client.
    const silent = await client(port);
    // A keep-alive connection after its request (node:http closes these itself).
    const used = await client(port);
    used.socket.write("GET /health HTTP/1.1\r\nHost: offers\r\n\r\n");
    await new Promise((resolve) => used.socket.once("data", resolve));
    // A request whose head is still arriving when the close begins.
    const begun = await client(port);
    begun.socket.write("GET /health HTTP/1.1\r\nHost: offers\r\n");
    await new Promise((resolve) => setTimeout(resolve, 100));

    const closing = ctx.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    begun.socket.write("\r\n");
    // Without the plugin this never settles: the silent client holds its connection open.
    await closing;
    expect(await silent.closed).toBe("");
    expect(await used.closed).toMatch(/^HTTP\/1\.1 200 /);
    expect(await begun.closed).toMatch(/^HTTP\/1\.1 (200|503) /);
  });
});
