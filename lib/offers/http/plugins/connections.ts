/**
 * Connections that never sent a byte are closed when the service closes. node:http's close ends
 * idle keep-alive connections and waits for every other one, and a connection that was opened and
 * never used is not idle to it: a browser's preconnect, an HTTP client's spare connection or a
 * probe that holds its socket would keep the shutdown waiting until its client gives up (the
 * service's shutdown deadline then cuts the rest of it short). Such a connection carries no
 * request, so nothing is lost by closing it.
 */
import type { Socket } from "node:net";
import fastifyPlugin from "fastify-plugin";

export const silentConnectionsPlugin = fastifyPlugin(
  async (app) => {
    const open = new Set<Socket>();
    // One listener for every connection, not a closure each: the streams' connections are many.
    function forget(this: Socket) {
      open.delete(this);
    }
    app.server.on("connection", (socket: Socket) => {
      open.add(socket);
      socket.on("close", forget);
    });
    app.addHook("preClose", async () => {
      // bytesRead counts what node:http's parser read too, which reads the socket below JavaScript.
      for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
    });
  },
  { name: "offers-silent-connections" },
);
