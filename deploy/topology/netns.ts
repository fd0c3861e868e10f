/**
 * Separate network hosts on one machine for the topology test: network namespaces joined by veth
 * pairs to a bridge of their own, which the test's process (the clients) reaches too. Every name
 * carries the owner's pid, so a run removes what a killed earlier run left behind and never touches
 * anything else. Root only (`ip netns`, iproute2).
 */
import { execFile, spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function ip(...args: string[]): Promise<string> {
  const { stdout } = await run("ip", args);
  return stdout;
}

const PREFIX = "tp";

/** Why this machine cannot build the topology, or null when it can. */
export async function netnsUnavailable(): Promise<string | null> {
  if (process.platform !== "linux") return "network namespaces need Linux";
  if (process.getuid?.() !== 0) return "ip netns needs root";
  if (!existsSync("/usr/sbin/ip") && !existsSync("/sbin/ip") && !existsSync("/usr/bin/ip")) return "iproute2 (ip) is not installed";
  const probe = `${PREFIX}probe${process.pid.toString(36)}`;
  try {
    await ip("netns", "add", probe);
    await ip("netns", "del", probe);
    return null;
  } catch (error) {
    return `ip netns add failed: ${(error as Error).message.split("\n")[0]}`;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function killAllIn(namespace: string): Promise<void> {
  const pids = (await ip("netns", "pids", namespace).catch(() => "")).split(/\s+/).filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGCONT");
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  // Wait for them to go, so the namespace's sockets and the processes' files are released.
  const deadline = Date.now() + 5_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** Removes namespaces and bridges of earlier runs whose process is gone. */
export async function removeLeftovers(): Promise<void> {
  const pattern = new RegExp(`^${PREFIX}([0-9a-z]{5})-`);
  const owners = new Set<string>();
  for (const line of (await ip("netns", "list")).split("\n")) {
    const match = pattern.exec(line.trim());
    if (match) owners.add(match[1]!);
  }
  for (const line of (await ip("-o", "link", "show", "type", "bridge")).split("\n")) {
    const match = new RegExp(`^\\d+: ${PREFIX}b([0-9a-z]{5}):`).exec(line);
    if (match) owners.add(match[1]!);
  }
  for (const owner of owners) {
    if (alive(parseInt(owner, 36))) continue;
    await new Topology(owner).destroy();
  }
}

export interface Host {
  name: string;
  namespace: string;
  address: string;
  /** The veth end on the bridge (root namespace): down cuts the host off. */
  hostLink: string;
}

export class Topology {
  readonly hosts = new Map<string, Host>();
  readonly bridge: string;
  /** The root namespace's address on the bridge (where the test's clients come from). */
  gateway = "";
  private subnet = "";
  private children: ChildProcess[] = [];

  constructor(readonly id = process.pid.toString(36).padStart(5, "0")) {
    this.bridge = `${PREFIX}b${this.id}`;
  }

  /** A bridge on a free /24 of 10.231.0.0/16, with the root namespace at .1. */
  async createNetwork(): Promise<void> {
    const routes = await ip("-4", "route", "show");
    const used = new Set([...routes.matchAll(/10\.231\.(\d+)\./g)].map((m) => Number(m[1])));
    const third = Array.from({ length: 250 }, (_, i) => (parseInt(this.id, 36) + i) % 250).find((n) => !used.has(n));
    if (third === undefined) throw new Error("no free /24 in 10.231.0.0/16");
    this.subnet = `10.231.${third}`;
    this.gateway = `${this.subnet}.1`;
    await ip("link", "add", this.bridge, "type", "bridge");
    await ip("addr", "add", `${this.gateway}/24`, "dev", this.bridge);
    await ip("link", "set", this.bridge, "up");
  }

  /** A host: a namespace with loopback and one interface on the bridge at .<octet>. */
  async addHost(name: string, octet: number): Promise<Host> {
    const namespace = `${PREFIX}${this.id}-${name}`;
    const hostLink = `${PREFIX}${this.id}${name}`.slice(0, 15);
    await ip("netns", "add", namespace);
    await ip("link", "add", hostLink, "type", "veth", "peer", "name", "eth0", "netns", namespace);
    await ip("link", "set", hostLink, "master", this.bridge);
    await ip("link", "set", hostLink, "up");
    const address = `${this.subnet}.${octet}`;
    await ip("-n", namespace, "addr", "add", `${address}/24`, "dev", "eth0");
    await ip("-n", namespace, "link", "set", "eth0", "up");
    await ip("-n", namespace, "link", "set", "lo", "up");
    const host = { name, namespace, address, hostLink };
    this.hosts.set(name, host);
    return host;
  }

  host(name: string): Host {
    const host = this.hosts.get(name);
    if (!host) throw new Error(`no host ${name}`);
    return host;
  }

  /** Runs a command inside a host's namespace (its pid is the command's: ip netns exec execs). */
  spawnIn(name: string, command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn("ip", ["netns", "exec", this.host(name).namespace, command, ...args], { stdio: ["ignore", "pipe", "pipe"], ...options });
    this.children.push(child);
    return child;
  }

  async execIn(name: string, command: string, args: string[]): Promise<string> {
    const { stdout } = await run("ip", ["netns", "exec", this.host(name).namespace, command, ...args]);
    return stdout;
  }

  /** Cuts a host off the network (its cable pulled: no reset reaches anyone) or plugs it back. */
  async setLink(name: string, up: boolean): Promise<void> {
    await ip("link", "set", this.host(name).hostLink, up ? "up" : "down");
  }

  /** Kills every process in the namespaces, removes them and the bridge. Safe to call twice. */
  async destroy(): Promise<void> {
    for (const child of this.children) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    const namespaces = (await ip("netns", "list").catch(() => ""))
      .split("\n")
      .map((line) => line.trim().split(" ")[0]!)
      .filter((n) => n.startsWith(`${PREFIX}${this.id}-`));
    for (const namespace of namespaces) {
      await killAllIn(namespace);
      // Removing the namespace removes its veth end, and with it the pair.
      await ip("netns", "del", namespace).catch(() => undefined);
    }
    await ip("link", "del", this.bridge).catch(() => undefined);
  }
}
