/** LISTEN on PostgreSQL over a connection of its own, proved to hear, opened again after it is lost. */
import type pg from "pg";
import { randomBytes } from "node:crypto";

export interface NotificationListener {
  onNotification(payload: string): void;
  /** Listening from now on (at first, and again after a loss): what was notified meanwhile is not heard. */
  onListening(): void;
  /**
   * Not listening (any more): the connection was lost, or notifications do not come back on it. Told
   * once per loss, and once when a connection that answers hears nothing, until the next onListening.
   */
  onDeaf(reason: string): void;
}

export interface Subscription {
  close(): Promise<void>;
}

/** How often a listening connection proves it still hears: a server gone silent shows within this plus the probe's bound. */
const LISTEN_PROBE_EVERY_MS = 10_000;
const LISTEN_RETRY_MIN_MS = 250;
const LISTEN_RETRY_MAX_MS = 5_000;

/**
 * LISTEN on a client of its own. Listening counts only once a notification sent from another
 * connection (`notify`, the pool's) on a channel of this subscription's own arrives while the client is
 * idle, as real ones do: a pooler in transaction mode accepts LISTEN but delivers nothing to an idle
 * client. The probe repeats every LISTEN_PROBE_EVERY_MS. A lost connection (error, end, or a probe not
 * heard within `probeMs`) makes the listener deaf and is replaced, with a backoff.
 */
export function listenOn(
  connect: () => pg.Client,
  notify: (channel: string, payload: string) => Promise<unknown>,
  channel: string,
  listener: NotificationListener,
  probeMs: number,
): Subscription {
  const probeChannel = `${channel}_probe_${randomBytes(6).toString("hex")}`;
  let closed = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;
  let probing: NodeJS.Timeout | undefined;
  let failures = 0;
  const waiting = new Map<string, (heard: boolean) => void>();

  const scheduleOpen = () => {
    if (closed) return;
    const delay = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_MIN_MS * 2 ** failures++);
    retry = setTimeout(() => void open(), delay);
    retry.unref();
  };
  const lost = (client: pg.Client, reason: string) => {
    client.removeAllListeners("notification");
    void client.end().catch(() => {});
    if (current !== client) return;
    current = null;
    clearInterval(probing);
    listener.onDeaf(reason);
    scheduleOpen();
  };
  /** True when a notification sent now from another connection reaches this client within probeMs. */
  const probe = () =>
    new Promise<boolean>((resolve) => {
      const nonce = randomBytes(8).toString("hex");
      const timer = setTimeout(() => settle(false), probeMs);
      const settle = (heard: boolean) => {
        clearTimeout(timer);
        waiting.delete(nonce);
        resolve(heard);
      };
      waiting.set(nonce, settle);
      notify(probeChannel, nonce).catch(() => settle(false));
    });
  const open = async () => {
    const client = connect();
    client.on("error", () => lost(client, "connection error"));
    client.on("end", () => lost(client, "connection ended"));
    client.on("notification", (message) => {
      if (message.channel === probeChannel) waiting.get(message.payload ?? "")?.(true);
      else if (current === client && message.channel === channel && message.payload !== undefined) listener.onNotification(message.payload);
    });
    let heard = false;
    let reason = `no notification came back within ${probeMs} ms on ${channel}`;
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      await client.query(`LISTEN ${client.escapeIdentifier(probeChannel)}`);
      heard = await probe();
    } catch (error) {
      reason = `could not listen on ${channel}: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (!heard || closed) {
      client.removeAllListeners("end");
      void client.end().catch(() => {});
      // Connected but deaf: said once per run of failures (e.g. behind a pooler in transaction mode).
      if (!heard && !closed && failures === 0) listener.onDeaf(reason);
      scheduleOpen();
      return;
    }
    current = client;
    failures = 0;
    listener.onListening();
    probing = setInterval(() => {
      void probe().then((ok) => {
        if (!ok) lost(client, `no notification came back within ${probeMs} ms`);
      });
    }, LISTEN_PROBE_EVERY_MS);
    probing.unref();
  };
  void open();
  return {
    close: async () => {
      closed = true;
      clearTimeout(retry);
      clearInterval(probing);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
