/**
 * The kernel's send queue of this process's TCP sockets, from /proc/net/tcp and /proc/net/tcp6
 * (Linux): the bytes a socket was given that the peer has not acknowledged yet (`tx_queue`).
 *
 * Node sees only its own write buffer, which stays empty until the kernel's buffers are full
 * (megabytes on a fast link); the kernel's queue shows a peer that stopped taking data as soon as
 * its receive window is full.
 *
 * No npm package fits: the one that parses these files (@stroncium/procfs) reads synchronously,
 * which would block the event loop for a few MB per sample, and still leaves the addresses in the
 * kernel's hex form. So: a row key built from the socket's addresses, and a scan that parses only
 * the rows asked for.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isIPv4, isIPv6 } from "node:net";
import { endianness } from "node:os";

export type TcpTable = "tcp" | "tcp6";

export const TCP_TABLE_PATHS: Record<TcpTable, string> = { tcp: "/proc/net/tcp", tcp6: "/proc/net/tcp6" };

/** What identifies a connected socket (node:net's Socket has these). */
export interface SocketAddresses {
  readonly localAddress?: string;
  readonly localPort?: number;
  readonly remoteAddress?: string;
  readonly remotePort?: number;
}

export interface TcpRow {
  table: TcpTable;
  /** "LOCAL:PORT REMOTE:PORT" exactly as the kernel prints the two address columns. */
  key: string;
}

const HOST_IS_LITTLE_ENDIAN = endianness() === "LE";

/** Whether the kernel's socket tables can be read here (Linux with /proc mounted). */
export function tcpTablesReadable(): boolean {
  return existsSync(TCP_TABLE_PATHS.tcp);
}

export function readTcpTable(table: TcpTable): Promise<string> {
  // latin1: the file is ASCII, and latin1 decodes fastest.
  return readFile(TCP_TABLE_PATHS[table], "latin1");
}

const hex = (value: number, digits: number) => value.toString(16).toUpperCase().padStart(digits, "0");

/**
 * The 16 bytes of an IPv6 address (zone id dropped, an IPv4 tail such as ::ffff:127.0.0.1 allowed),
 * or undefined if it is not one.
 */
export function ipv6Bytes(address: string): number[] | undefined {
  const text = address.split("%")[0]!;
  if (!isIPv6(text)) return undefined;
  const toGroups = (part: string): number[] => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const piece of part.split(":")) {
      if (piece.includes(".")) {
        const [a, b, c, d] = piece.split(".").map(Number) as [number, number, number, number];
        groups.push((a << 8) | b, (c << 8) | d);
      } else {
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  const halves = text.split("::");
  const head = toGroups(halves[0]!);
  const tail = halves.length > 1 ? toGroups(halves[1]!) : [];
  const groups = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

/** Four bytes as the kernel prints a 32-bit word of an address: the word read in host byte order. */
function wordHex(bytes: number[], littleEndian: boolean): string {
  const ordered = littleEndian ? [...bytes].reverse() : bytes;
  return ordered.map((b) => hex(b, 2)).join("");
}

/** An address as /proc/net/tcp{,6} prints it (8 or 32 hex digits), and the table it is listed in. */
export function kernelAddress(address: string, littleEndian = HOST_IS_LITTLE_ENDIAN): { table: TcpTable; hex: string } | undefined {
  if (isIPv4(address)) return { table: "tcp", hex: wordHex(address.split(".").map(Number), littleEndian) };
  const bytes = ipv6Bytes(address);
  if (!bytes) return undefined;
  let text = "";
  for (let i = 0; i < 16; i += 4) text += wordHex(bytes.slice(i, i + 4), littleEndian);
  return { table: "tcp6", hex: text };
}

/** The row of a connected socket in the kernel's table, or undefined if its addresses are not known. */
export function tcpRowOf(socket: SocketAddresses, littleEndian = HOST_IS_LITTLE_ENDIAN): TcpRow | undefined {
  const { localAddress, localPort, remoteAddress, remotePort } = socket;
  if (!localAddress || !remoteAddress || localPort === undefined || remotePort === undefined) return undefined;
  const local = kernelAddress(localAddress, littleEndian);
  const remote = kernelAddress(remoteAddress, littleEndian);
  // Both ends of a socket are of one family (an IPv6 socket shows IPv4 peers as ::ffff:a.b.c.d).
  if (!local || !remote || local.table !== remote.table) return undefined;
  return { table: local.table, key: `${local.hex}:${hex(localPort, 4)} ${remote.hex}:${hex(remotePort, 4)}` };
}

/** States whose rows are not a live connection of ours: TIME_WAIT (06) and LISTEN (0A). */
const IGNORED_STATES = new Set(["06", "0A"]);

/** The value of the hex digits text[start, end), or -1. */
function hexAt(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 70 ? c - 55 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Both ports of a row key as one number: rows are first matched on it, without building a string. */
const portsOf = (key: string, localEnd: number) => hexAt(key, localEnd - 4, localEnd) * 65536 + hexAt(key, key.length - 4, key.length);

/**
 * Adds to `into` the send queue (tx_queue, bytes) of each row of a /proc/net/tcp{,6} text whose key
 * is wanted. Rows look like
 * `  12: 0100007F:1F90 0100007F:C350 01 00005488:00000000 04:000000C8 00000000  1000 ...`
 * (slot, local, remote, state, tx_queue:rx_queue, ...). The table lists every socket of the host's
 * network namespace, so rows are matched on their ports first and only the few candidates compared.
 */
export function collectSendQueues(text: string, wanted: ReadonlySet<string>, into = new Map<string, number>()): Map<string, number> {
  const byPorts = new Map<number, string[]>();
  for (const key of wanted) {
    const ports = portsOf(key, key.indexOf(" "));
    const keys = byPorts.get(ports);
    if (keys) keys.push(key);
    else byPorts.set(ports, [key]);
  }
  let lineStart = text.indexOf("\n") + 1; // the first line is the header
  while (lineStart > 0 && lineStart < text.length) {
    let lineEnd = text.indexOf("\n", lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const colon = text.indexOf(":", lineStart);
    if (colon > 0 && colon < lineEnd) {
      let keyStart = colon + 1;
      while (text.charCodeAt(keyStart) === 32) keyStart++;
      const localEnd = text.indexOf(" ", keyStart);
      const remoteEnd = localEnd > 0 ? text.indexOf(" ", localEnd + 1) : -1;
      const candidates =
        remoteEnd > 0 && remoteEnd < lineEnd ? byPorts.get(hexAt(text, localEnd - 4, localEnd) * 65536 + hexAt(text, remoteEnd - 4, remoteEnd)) : undefined;
      const key = candidates?.find((k) => k.length === remoteEnd - keyStart && text.startsWith(k, keyStart));
      if (key !== undefined && !into.has(key)) {
        const state = text.slice(remoteEnd + 1, remoteEnd + 3);
        const queueStart = remoteEnd + 4;
        const queue = hexAt(text, queueStart, text.indexOf(":", queueStart));
        if (!IGNORED_STATES.has(state) && queue >= 0) into.set(key, queue);
      }
    }
    lineStart = lineEnd + 1;
  }
  return into;
}
