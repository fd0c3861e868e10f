// Runs the services as child processes with prefixed output; stops all of them on Ctrl-C, SIGTERM,
// or when any exits. A service that exits before it answered its health URL is a failed start: the
// runner says which service and why (its last lines of output) and exits non-zero at once.
import { spawn } from "node:child_process";

const colors = { offers: "\x1b[36m", portal: "\x1b[35m" };
const reset = "\x1b[0m";
const TAIL_LINES = 5;

function prefixLines(name, stream, target, tail) {
  const tag = process.stdout.isTTY ? `${colors[name] ?? ""}[${name}]${reset} ` : `[${name}] `;
  let pending = "";
  const keep = (line) => {
    // Colour codes out, so the reason quoted in the failure line reads plainly.
    const plain = line.replace(/\x1b\[[0-9;]*m/g, "").trim();
    if (!plain) return;
    tail.push(plain);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  stream.on("data", (chunk) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      keep(line);
      target.write(tag + line + "\n");
    }
  });
  stream.on("end", () => {
    if (!pending) return;
    keep(pending);
    target.write(tag + pending + "\n");
  });
}

/**
 * Services start in order; one with `readyUrl` must answer it before the next one starts. One with
 * `healthUrl` is polled in the background; `ready` resolves true once every such URL answered 2xx.
 * @param {{name: string, command: string, args: string[], env?: Record<string,string>, readyUrl?: string, healthUrl?: string}[]} services
 * @param {{startTimeoutMs?: number}} [options]
 * @returns {{ stopped: Promise<number>, ready: Promise<boolean>, stop: (code?: number) => void }}
 */
export function runServices(services, options = {}) {
  const startTimeoutMs = options.startTimeoutMs ?? Number(process.env.START_TIMEOUT_MS ?? 180_000);
  const children = [];
  let stopping = false;
  let resolveStopped;
  const stopped = new Promise((resolve) => (resolveStopped = resolve));
  let exitCode = 0;
  let running = 0;
  const healthy = new Set();

  const stop = (code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {}
      }
    }
    if (running === 0) resolveStopped(exitCode);
    // Whatever ignores SIGTERM for 10 s is killed.
    setTimeout(() => {
      for (const child of children) {
        if (child.exitCode === null && child.signalCode === null) {
          try {
            process.kill(-child.pid, "SIGKILL");
          } catch {}
        }
      }
    }, 10_000).unref();
  };

  const fail = (service, reason) => {
    if (stopping) return;
    process.stderr.write(`\n[${service.name}] failed to start: ${reason}\n`);
    stop(1);
  };

  const watchHealth = async (service, url) => {
    const ok = await waitForHealthy(url, startTimeoutMs, () => stopping);
    if (ok) healthy.add(service.name);
    else if (!stopping) fail(service, `did not answer ${url} within ${Math.round(startTimeoutMs / 1000)} s`);
    return ok;
  };

  const start = (service) => {
    const child = spawn(service.command, service.args, {
      env: { ...process.env, ...service.env, FORCE_COLOR: process.stdout.isTTY ? "1" : "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // own process group, so the whole tree (npx, tsx, next workers) stops together
    });
    children.push(child);
    running += 1;
    const tail = [];
    prefixLines(service.name, child.stdout, process.stdout, tail);
    prefixLines(service.name, child.stderr, process.stderr, tail);
    child.on("error", (err) => fail(service, `${service.command} could not be run: ${err.message}`));
    child.on("exit", (code, signal) => {
      running -= 1;
      if (!stopping) {
        const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
        // Output may still be in the pipes when exit fires: read the tail once they close.
        setImmediate(() => {
          const last = tail.length ? `; last output: ${tail.join(" | ")}` : "";
          const everHealthy = healthy.has(service.name);
          if (everHealthy) {
            process.stderr.write(`[${service.name}] ${how}; stopping the other services\n`);
            stop(code || 1);
          } else fail(service, `${how}${last}`);
        });
      }
      if (running === 0 && stopping) resolveStopped(exitCode);
    });
  };

  // Before the first service starts: a signal that comes while the start is still under way (the first
  // health check's fetch alone takes tens of milliseconds to load) must stop the services, not just this process.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(0));
  // Whatever ends this process, its services must not outlive it.
  process.on("exit", () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
    }
  });

  const ready = (async () => {
    const watches = [];
    for (const service of services) {
      if (stopping) return false;
      start(service);
      if (service.readyUrl && !(await watchHealth(service, service.readyUrl))) return false;
      if (service.healthUrl) watches.push(watchHealth(service, service.healthUrl));
    }
    return (await Promise.all(watches)).every(Boolean) && !stopping;
  })();
  return { stopped, ready, stop };
}

/** Polls a URL until it answers 2xx, or gives up after timeoutMs or once cancelled() is true. */
export async function waitForHealthy(url, timeoutMs = 180_000, cancelled = () => false) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !cancelled()) {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return true;
    } catch {}
    // Short steps, so a stop or a failed start is noticed at once.
    for (let waited = 0; waited < 500 && !cancelled(); waited += 50) await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
