/**
 * A loopback TCP proxy that a test can cut and restore, to simulate a database or Redis going away.
 */
import net from "node:net";

export interface TcpProxy {
  port: number;
  /** Refuses new connections and destroys the open ones. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export interface TcpProxyOptions {
  /** The address it listens on; default 127.0.0.1. */
  listenHost?: string;
  /** Links an accepted client with its own upstream connection; default a plain pipe both ways. */
  join?: (client: net.Socket, upstream: net.Socket) => void;
}

export async function startTcpProxy(targetHost: string, targetPort: number, options: TcpProxyOptions = {}): Promise<TcpProxy> {
  const join = options.join ?? ((client, upstream) => client.pipe(upstream).pipe(client));
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, targetHost);
        sockets.add(client);
        sockets.add(upstream);
        join(client, upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on("error", drop).on("close", drop);
        upstream.on("error", drop).on("close", drop);
      });
      server.once("error", reject);
      server.listen(port, options.listenHost ?? "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (!server) return resolve();
      server.close(() => resolve());
      server = undefined;
    });

  await listen();
  return {
    get port() {
      return port;
    },
    cut: stop,
    restore: listen,
    close: stop,
  };
}

/** A proxy in front of a service URL (postgres://, redis://…), and the same URL pointed through it. */
export async function startProxyFor(serviceUrl: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(serviceUrl);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || defaultPort));
  const via = new URL(serviceUrl);
  via.hostname = "127.0.0.1";
  via.port = String(proxy.port);
  return { proxy, url: via.toString() };
}
