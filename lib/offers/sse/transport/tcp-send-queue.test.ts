import { afterEach, describe, expect, it } from "vitest";
import net from "node:net";
import { once } from "node:events";
import { collectSendQueues, ipv6Bytes, kernelAddress, readTcpTable, tcpRowOf, tcpTablesReadable } from "./tcp-send-queue";

// Lines as the kernel prints them (tcp4_seq_show / tcp6_seq_show), on a little-endian host.
const TCP4 = [
  "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
  "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4024 1 0000000000000000 100 0 0 10 0",
  "   1: 0100007F:1F90 0100007F:C350 01 00005488:00000000 04:000000C8 00000000     0        0 51234 1 0000000000000000 20 4 30 10 -1",
  "   2: 0100007F:1F90 0100007F:C351 06 00000000:00000000 03:00001770 00000000     0        0 0 3 0000000000000000",
  "   3: 0A00000A:01BB 0200000A:D431 01 00000000:00000000 00:00000000 00000000     0        0 51240 1 0000000000000000 20 4 30 10 -1",
  "10000: 0100007F:1F90 0100007F:C352 08 0000000D:00000000 01:00000014 00000000     0        0 51250 1 0000000000000000 20 4 30 10 -1",
].join("\n");

const TCP6 = [
  "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
  "   0: 00000000000000000000000001000000:1F90 00000000000000000000000001000000:C350 01 00020000:00000000 04:000000C8 00000000     0        0 6001 1 0000000000000000 20 4 30 10 -1",
  "   1: 0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:C351 01 0000FFFF:00000000 00:00000000 00000000     0        0 6002 1 0000000000000000 20 4 30 10 -1",
].join("\n");

describe("kernel addresses", () => {
  it("prints IPv4 addresses as the kernel does (a 32-bit word in host byte order)", () => {
    expect(kernelAddress("127.0.0.1", true)).toEqual({ table: "tcp", hex: "0100007F" });
    expect(kernelAddress("10.0.0.2", true)).toEqual({ table: "tcp", hex: "0200000A" });
    expect(kernelAddress("10.0.0.2", false)).toEqual({ table: "tcp", hex: "0A000002" });
  });

  it("prints IPv6 addresses word by word, with IPv4-mapped and zoned forms", () => {
    expect(kernelAddress("::1", true)).toEqual({ table: "tcp6", hex: "00000000000000000000000001000000" });
    expect(kernelAddress("::ffff:127.0.0.1", true)).toEqual({ table: "tcp6", hex: "0000000000000000FFFF00000100007F" });
    expect(kernelAddress("2001:db8::1", true)?.hex).toBe("B80D0120000000000000000001000000");
    expect(kernelAddress("2001:db8::1", false)?.hex).toBe("20010DB8000000000000000000000001");
    expect(kernelAddress("fe80::1%eth0", true)?.hex).toBe("000080FE000000000000000001000000");
    expect(ipv6Bytes("1:2:3:4:5:6:7:8")).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(kernelAddress("not an address")).toBeUndefined();
  });

  it("keys a socket by its local and remote address and port", () => {
    const row = { localAddress: "127.0.0.1", localPort: 8080, remoteAddress: "127.0.0.1", remotePort: 50000 };
    expect(tcpRowOf(row, true)).toEqual({ table: "tcp", key: "0100007F:1F90 0100007F:C350" });
    expect(tcpRowOf({ ...row, localAddress: "::ffff:127.0.0.1", remoteAddress: "::ffff:127.0.0.1" }, true)).toEqual({
      table: "tcp6",
      key: "0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:C350",
    });
    expect(tcpRowOf({ ...row, remoteAddress: undefined })).toBeUndefined();
  });
});

describe("collectSendQueues", () => {
  it("reads tx_queue of the wanted IPv4 rows, skipping the header, TIME_WAIT and LISTEN", () => {
    const wanted = new Set([
      "0100007F:1F90 0100007F:C350",
      "0100007F:1F90 0100007F:C351", // TIME_WAIT
      "0100007F:1F90 00000000:0000", // LISTEN
      "0100007F:1F90 0100007F:C352", // CLOSE_WAIT, five-digit slot
      "0100007F:1F90 0100007F:FFFF", // not listed
    ]);
    expect(collectSendQueues(TCP4, wanted)).toEqual(
      new Map([
        ["0100007F:1F90 0100007F:C350", 0x5488],
        ["0100007F:1F90 0100007F:C352", 13],
      ]),
    );
  });

  it("reads IPv6 and IPv4-mapped IPv6 rows into the same map", () => {
    const into = collectSendQueues(TCP4, new Set(["0A00000A:01BB 0200000A:D431"]));
    collectSendQueues(
      TCP6,
      new Set([
        "00000000000000000000000001000000:1F90 00000000000000000000000001000000:C350",
        "0000000000000000FFFF00000100007F:1F90 0000000000000000FFFF00000100007F:C351",
      ]),
      into,
    );
    expect([...into.values()]).toEqual([0, 0x20000, 0xffff]);
  });

  it("copes with an empty table and a missing trailing newline", () => {
    expect(collectSendQueues("", new Set(["x"])).size).toBe(0);
    expect(collectSendQueues(TCP4.split("\n")[0]!, new Set(["x"])).size).toBe(0);
  });
});

describe.skipIf(!tcpTablesReadable())("the kernel's own tables", () => {
  const closers: Array<() => void> = [];
  afterEach(() => closers.splice(0).forEach((close) => close()));

  /** A connected pair on loopback; the server side's row must be found, with what the client did not read. */
  async function pair(listenHost: string, connectHost: string) {
    const server = net.createServer();
    server.listen(0, listenHost);
    await once(server, "listening");
    const accepted = once(server, "connection") as Promise<[net.Socket]>;
    const client = net.connect((server.address() as net.AddressInfo).port, connectHost);
    client.pause();
    const [socket] = await accepted;
    closers.push(() => {
      client.destroy();
      socket.destroy();
      server.close();
    });
    return socket;
  }

  it.each([
    ["IPv4", "127.0.0.1", "127.0.0.1"],
    ["IPv6", "::1", "::1"],
    ["IPv4-mapped IPv6", "::", "127.0.0.1"],
  ])("finds a %s socket and its unacknowledged bytes", async (_name, listenHost, connectHost) => {
    const socket = await pair(listenHost, connectHost).catch(() => undefined);
    if (!socket) return; // no such loopback address on this machine
    const row = tcpRowOf(socket);
    expect(row).toBeDefined();
    // More than the paused client's receive buffer takes: the rest waits in this side's kernel.
    socket.write(Buffer.alloc(1024 * 1024));
    let queue = 0;
    for (let i = 0; i < 100 && queue === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      queue = collectSendQueues(await readTcpTable(row!.table), new Set([row!.key])).get(row!.key) ?? 0;
    }
    expect(queue).toBeGreaterThan(0);
    expect(queue).toBeLessThanOrEqual(1024 * 1024);
  });
});
