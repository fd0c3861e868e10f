import { afterEach, describe, expect, it } from "vitest";
import { StallSampler, type StaleReport } from "./stall-sampler";
import { tcpRowOf, type TcpTable } from "./tcp-send-queue";

/** A server-side socket as the sampler sees it, and the kernel's queue for it. */
class FakeSocket {
  localAddress = "127.0.0.1";
  localPort = 8080;
  remoteAddress = "127.0.0.1";
  destroyed = false;
  /** Handed to Node so far, including what Node still buffers. */
  bytesWritten = 0;
  writableLength = 0;
  /** The kernel's unacknowledged bytes. */
  kernelQueue = 0;
  constructor(readonly remotePort: number) {}
  /** The app writes; the kernel takes it at once and the peer acknowledges `acked` of the queue. */
  send(bytes: number, acked = 0) {
    this.bytesWritten += bytes;
    this.kernelQueue += bytes - acked;
  }
  get key() {
    return tcpRowOf(this)!.key;
  }
}

function kernel(sockets: FakeSocket[]) {
  const reads: TcpTable[] = [];
  let afterSnapshot = () => {};
  const readTable = async (table: TcpTable) => {
    reads.push(table);
    const rows = sockets.map((s, i) => `${String(i).padStart(4)}: ${s.key} 01 ${s.kernelQueue.toString(16).toUpperCase().padStart(8, "0")}:00000000 00:00000000 00000000  0 0 1 1 0`);
    const text = ["  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode", ...rows].join("\n");
    afterSnapshot();
    return text;
  };
  return { reads, readTable, setAfterSnapshot: (f: () => void) => (afterSnapshot = f) };
}

describe("StallSampler", () => {
  let clock = 0;
  const samplers: StallSampler[] = [];
  afterEach(() => samplers.splice(0).forEach((s) => s.stop()));

  function sampler(sockets: FakeSocket[]) {
    const k = kernel(sockets);
    const s = new StallSampler({ staleTimeoutMs: 1_000, periodMs: 60_000, available: true, readTable: k.readTable, now: () => clock });
    samplers.push(s);
    const stale: Array<[FakeSocket, StaleReport]> = [];
    for (const socket of sockets) s.watch(socket, (report) => stale.push([socket, report]));
    return { s, k, stale, step: async (ms: number) => ((clock += ms), await s.sample()) };
  }

  it("closes a connection whose client acknowledged nothing of what waits in the kernel for the stale timeout", async () => {
    const idle = new FakeSocket(50_000);
    const { stale, step } = sampler([idle]);
    idle.send(150_000, 128_000); // the client's kernel took what fits in its receive buffer
    await step(0);
    await step(500);
    idle.send(13); // a heartbeat: still nothing acknowledged
    await step(400);
    expect(stale).toHaveLength(0);
    await step(100);
    expect(stale).toEqual([[idle, { kernelQueuedBytes: 22_013, nodeQueuedBytes: 0 }]]);
  });

  it("keeps a connection whose client takes a little every time, though bytes are always queued", async () => {
    const slow = new FakeSocket(50_001);
    const { stale, step } = sampler([slow]);
    slow.send(300_000, 128_000);
    for (let i = 0; i < 20; i++) {
      await step(400);
      slow.send(1_000, 2_000); // reads 2 KB while 1 KB more arrives
    }
    expect(slow.kernelQueue).toBeGreaterThan(0);
    expect(stale).toHaveLength(0);
  });

  it("keeps a connection with nothing outstanding, and reads no table while nothing was handed since", async () => {
    const reader = new FakeSocket(50_002);
    const { stale, step, k } = sampler([reader]);
    reader.send(13, 13);
    await step(0);
    expect(k.reads).toEqual(["tcp"]);
    for (let i = 0; i < 10; i++) await step(500);
    expect(k.reads).toHaveLength(1);
    reader.send(13, 13);
    await step(500);
    expect(k.reads).toHaveLength(2);
    expect(stale).toHaveLength(0);
  });

  it("does not take bytes handed to the kernel while the table is read for progress", async () => {
    const idle = new FakeSocket(50_003);
    const { stale, step, k } = sampler([idle]);
    idle.send(200_000, 128_000);
    for (let i = 0; i < 6; i++) {
      // Every other sample, a write lands after the kernel printed the table but before the sampler looks at Node again.
      k.setAfterSnapshot(i % 2 === 0 ? () => idle.send(5_000) : () => {});
      await step(250);
    }
    expect(stale.map(([s]) => s)).toEqual([idle]);
  });

  it("counts what Node still buffers as outstanding", async () => {
    const idle = new FakeSocket(50_004);
    const { stale, step } = sampler([idle]);
    idle.bytesWritten = 4_000_000;
    idle.writableLength = 64_000;
    idle.kernelQueue = 0;
    await step(0);
    await step(1_000);
    expect(stale.map(([, r]) => r)).toEqual([{ kernelQueuedBytes: 0, nodeQueuedBytes: 64_000 }]);
  });

  it("runs its timer only while it watches something, and watches nothing where the tables are not readable", async () => {
    const s = new StallSampler({ staleTimeoutMs: 1_000, periodMs: 10, available: true, readTable: kernel([]).readTable });
    samplers.push(s);
    expect(s.running).toBe(false);
    const unwatch = s.watch(new FakeSocket(50_005), () => {});
    expect(s.running).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    unwatch();
    await new Promise((r) => setTimeout(r, 20));
    expect(s.running).toBe(false);
    expect(s.watching).toBe(0);

    const elsewhere = new StallSampler({ staleTimeoutMs: 1_000, periodMs: 10, available: false });
    elsewhere.watch(new FakeSocket(50_006), () => {});
    expect(elsewhere.running).toBe(false);
    expect(elsewhere.watching).toBe(0);
  });
});
