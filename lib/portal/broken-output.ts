/**
 * When whatever reads the portal's stdout or stderr goes away (a log shipper that died, a closed
 * terminal, a supervisor killed without its children), every write fails with EPIPE. With no listener,
 * the failure is an uncaught exception; Next.js logs those to stderr, which fails again: the server spun
 * at 100 % CPU writing nothing, for as long as it ran. With a listener, a failed write is dropped: there
 * is nowhere left to report it, and the server goes on serving.
 */
export function dropFailedOutput(streams: NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) stream.on("error", () => undefined);
}
