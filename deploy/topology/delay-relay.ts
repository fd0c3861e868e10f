/**
 * A TCP relay that adds a fixed delay to every byte in both directions, for a slow link where the
 * kernel has no netem (CONFIG_NET_SCH_NETEM is not built into this machine's kernel). Order is kept:
 * each direction is a queue released by one timer. The delay can change while connections are open.
 * The listening and the socket bookkeeping are the test proxy's (test-support/tcp-proxy.ts).
 */
import type net from "node:net";
import { startTcpProxy } from "../../test-support/tcp-proxy";

export interface DelayRelay {
  port: number;
  /** One-way delay added to each direction, in milliseconds. */
  delayMs: number;
  close(): Promise<void>;
}

function delayedPipe(from: net.Socket, to: net.Socket, relay: { delayMs: number }): void {
  const queue: Array<{ at: number; chunk: Buffer }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const release = () => {
    timer = undefined;
    const now = Date.now();
    while (queue.length && queue[0]!.at <= now) {
      if (!to.destroyed) to.write(queue.shift()!.chunk);
      else queue.shift();
    }
    if (queue.length) timer = setTimeout(release, queue[0]!.at - now);
  };
  from.on("data", (chunk: Buffer) => {
    queue.push({ at: Date.now() + relay.delayMs, chunk });
    if (relay.delayMs === 0 && queue.length === 1) return release();
    timer ??= setTimeout(release, Math.max(0, queue[0]!.at - Date.now()));
  });
  from.on("end", () => {
    const finish = () => (queue.length ? setTimeout(finish, 10) : to.end());
    finish();
  });
}

export async function startDelayRelay(listenHost: string, targetHost: string, targetPort: number): Promise<DelayRelay> {
  const relay = { delayMs: 0 };
  const proxy = await startTcpProxy(targetHost, targetPort, {
    listenHost,
    join: (client, upstream) => {
      client.setNoDelay(true);
      upstream.setNoDelay(true);
      delayedPipe(client, upstream, relay);
      delayedPipe(upstream, client, relay);
    },
  });
  return {
    port: proxy.port,
    get delayMs() {
      return relay.delayMs;
    },
    set delayMs(value: number) {
      relay.delayMs = value;
    },
    close: () => proxy.close(),
  };
}
