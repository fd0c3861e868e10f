/**
 * One component file's text → a validated record, or error entries {file, path, message}.
 * Pure (no file system): the loader reads, this judges. Safe on hostile input: alias bombs are
 * stopped by yaml's maxAliasCount, size is checked by the caller before reading.
 */
import "server-only";
import { parseDocument, type Document } from "yaml";
import { hash } from "node:crypto";
import { validateComponent, type Component } from "./schema";
import { fastParseYaml } from "./fast-yaml";

export interface CatalogError {
  /** File path relative to the config repository, e.g. components/checkout-api.yaml. */
  file: string;
  /** Field path inside the record (spec.owners[0].user); "" when the whole file is at fault. */
  path: string;
  message: string;
}

/** Aliases a record may expand; a normal record has none, a "billion laughs" file needs millions. */
export const MAX_ALIAS_COUNT = 100;
/** Files larger than this are refused without being read into the parser. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;

export type ParseResult =
  | { ok: true; component: Component }
  | { ok: false; errors: CatalogError[]; /** metadata.name when it could be read, to mark the last good version stale. */ name?: string };

export function etagOf(text: string): string {
  // One-shot hash: a hash object per file was a tenth of a 100,000-record cold load.
  return `"${hash("sha1", text, "hex").slice(0, 20)}"`;
}

export function parseYamlDocument(text: string): Document {
  return parseDocument(text, { prettyErrors: true, uniqueKeys: true, strict: true });
}

function lineOf(message: string): string {
  // yaml's pretty errors carry "at line N, column M" followed by a code excerpt; keep the first line.
  return message.split("\n")[0].trim().replace(/:$/, "");
}

/** `bytes`: the file as read, when it is at hand (its values are then copied out of it rather than cut from the text). */
export function parseComponentText(file: string, text: string, bytes?: Buffer): ParseResult {
  // Fast path for the plain subset records are written in; anything else goes to the full parser.
  const fast = fastParseYaml(text, bytes && bytes.length === text.length ? bytes : undefined);
  if (fast !== undefined && fast !== null && typeof fast === "object" && !Array.isArray(fast)) return judge(file, fast);
  let doc: Document;
  try {
    doc = parseYamlDocument(text);
  } catch (e) {
    return { ok: false, errors: [{ file, path: "", message: `not readable as YAML: ${(e as Error).message}` }] };
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.slice(0, 5).map((err) => ({ file, path: "", message: `YAML syntax error: ${lineOf(err.message)}` })),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    const msg = (e as Error).message;
    if (/alias/i.test(msg)) {
      return {
        ok: false,
        errors: [{ file, path: "", message: `refused: the file expands too many YAML aliases (more than ${MAX_ALIAS_COUNT}); this looks like an alias bomb` }],
      };
    }
    return { ok: false, errors: [{ file, path: "", message: `not readable as YAML: ${msg}` }] };
  }
  if (data === null || data === undefined) {
    return { ok: false, errors: [{ file, path: "", message: "the file is empty; it should hold one Component record" }] };
  }
  if (typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, errors: [{ file, path: "", message: "the file should hold one Component record (a mapping), not a list or a single value" }] };
  }
  return judge(file, data);
}

function judge(file: string, data: object): ParseResult {
  const result = validateComponent(data);
  if (result.ok) return { ok: true, component: result.component };
  const meta = (data as { metadata?: { name?: unknown } }).metadata;
  const name = meta && typeof meta === "object" && typeof meta.name === "string" ? meta.name : undefined;
  return { ok: false, name, errors: result.issues.map((i) => ({ file, path: i.path, message: i.message })) };
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}
