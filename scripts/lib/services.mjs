// Runs the two services as child processes with prefixed output; stops both on Ctrl-C, SIGTERM,
// or when either exits.
import { spawn } from "node:child_process";

const colors = { offers: "\x1b[36m", portal: "\x1b[35m" };
const reset = "\x1b[0m";

function prefixLines(name, stream, target) {
  const tag = process.stdout.isTTY ? `${colors[name] ?? ""}[${name}]${reset} ` : `[${name}] `;
  let pending = "";
  stream.on("data", (chunk) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) target.write(tag + line + "\n");
  });
  stream.on("end", () => pending && target.write(tag + pending + "\n"));
}

/**
 * Services start in order; one with `readyUrl` must answer it before the next one starts.
 * @param {{name: string, command: string, args: string[], env?: Record<string,string>, readyUrl?: string}[]} services
 * @returns {{ stopped: Promise<number>, stop: () => void }}
 */
export function runServices(services) {
  const children = [];
  let stopping = false;
  let resolveStopped;
  const stopped = new Promise((resolve) => (resolveStopped = resolve));
  let exitCode = 0;
  let running = services.length;

  const stop = (code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const child of children) {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {}
      }
    }
    // Whatever ignores SIGTERM for 10 s is killed.
    setTimeout(() => {
      for (const child of children) {
        if (child.exitCode === null) {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {}
        }
      }
    }, 10_000).unref();
  };

  const start = (service) => {
    const child = spawn(service.command, service.args, {
      env: { ...process.env, ...service.env, FORCE_COLOR: process.stdout.isTTY ? "1" : "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // own process group, so the whole tree (npx, tsx, next workers) stops together
    });
    children.push(child);
    prefixLines(service.name, child.stdout, process.stdout);
    prefixLines(service.name, child.stderr, process.stderr);
    child.on("exit", (code, signal) => {
      running -= 1;
      if (!stopping) {
        process.stderr.write(`[${service.name}] exited (${signal ?? code}); stopping the other service\n`);
        stop(code || 1);
      }
      if (running === 0) resolveStopped(exitCode);
    });
  };

  (async () => {
    for (const [index, service] of services.entries()) {
      if (stopping) {
        running -= services.length - index;
        if (running === 0) resolveStopped(exitCode);
        return;
      }
      start(service);
      if (service.readyUrl && !(await waitForHealthy(service.readyUrl, 180_000, () => stopping))) {
        process.stderr.write(`[${service.name}] did not answer ${service.readyUrl}; stopping\n`);
        stop(1);
      }
    }
  })();

  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(0));
  // Whatever ends this process, its services must not outlive it.
  process.on("exit", () => {
    for (const child of children) {
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
    }
  });
  return { stopped, stop };
}

/** Polls a URL until it answers 2xx, or gives up after timeoutMs. */
export async function waitForHealthy(url, timeoutMs = 180_000, cancelled = () => false) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !cancelled()) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return true;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}
