/**
 * Reads Backstage catalog files: each file may hold several YAML documents (`---`); each document is one
 * entity. What cannot be read (invalid YAML, a document that is not a mapping, a file too large, too many
 * entities) is a note of the report, never an exception: the other documents still count.
 */
import { parseAllDocuments } from "yaml";
import { parseRef, refText, resolveInRepo, type EntityRef } from "./refs";
import type { UnmappedNote } from "./map";

/** Largest catalog file read, in characters (a catalog-info.yaml is a few kilobytes). */
export const CATALOG_FILE_MAX = 1_000_000;
/** Most entities read from one repository, and most files (a Location's targets) followed. */
export const ENTITIES_MAX = 200;
export const CATALOG_FILES_MAX = 20;
/** The file the importer starts from, at the repository's root. */
export const CATALOG_FILE = "catalog-info.yaml";

export interface BackstageEntity {
  /** The file it was read from (repository path) and its document's number there (1-based). */
  file: string;
  document: number;
  /** Lowercase kind; "" when the document has none. */
  kind: string;
  ref: EntityRef | null;
  /** How the report names it. */
  label: string;
  raw: Record<string, unknown>;
}

const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The entities of one file, and what could not be read from it. */
export function parseCatalogFile(file: string, text: string): { entities: BackstageEntity[]; notes: UnmappedNote[] } {
  const where = (n: number) => `${file}, document ${n}`;
  if (text.length > CATALOG_FILE_MAX) {
    const mb = (text.length / 1_000_000).toFixed(1);
    return { entities: [], notes: [{ entity: file, field: "", message: `the file is ${mb} MB; at most ${CATALOG_FILE_MAX / 1_000_000} MB is read, so none of it was imported` }] };
  }
  const entities: BackstageEntity[] = [];
  const notes: UnmappedNote[] = [];
  let docs;
  try {
    docs = parseAllDocuments(text, { prettyErrors: false });
  } catch (e) {
    return { entities: [], notes: [{ entity: file, field: "", message: `not valid YAML: ${(e as Error).message}` }] };
  }
  const list = Array.isArray(docs) ? docs : [docs];
  list.forEach((doc, i) => {
    const n = i + 1;
    if (doc.errors.length) {
      notes.push({ entity: where(n), field: "", message: `not valid YAML, so this document was skipped: ${doc.errors[0].message.split("\n")[0]}` });
      return;
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (e) {
      notes.push({ entity: where(n), field: "", message: `could not be read, so this document was skipped: ${(e as Error).message}` });
      return;
    }
    if (value === null || value === undefined) return;
    if (!isMapping(value)) {
      notes.push({ entity: where(n), field: "", message: "is not an entity (a mapping with apiVersion, kind, metadata and spec), so it was skipped" });
      return;
    }
    const kind = typeof value.kind === "string" ? value.kind.toLowerCase() : "";
    const metadata = isMapping(value.metadata) ? value.metadata : {};
    const name = typeof metadata.name === "string" ? metadata.name : null;
    const ref = name && kind ? parseRef(`${kind}:${typeof metadata.namespace === "string" ? metadata.namespace : "default"}/${name}`, kind) : null;
    entities.push({ file, document: n, kind, ref, label: ref ? refText(ref) : `${kind || "entity"} in ${where(n)}`, raw: value });
  });
  return { entities, notes };
}

/** The files a Location entity points to, resolved in the repository; targets elsewhere are notes. */
export function locationTargets(entity: BackstageEntity): { files: string[]; notes: UnmappedNote[] } {
  const spec = isMapping(entity.raw.spec) ? entity.raw.spec : {};
  const targets = [...(typeof spec.target === "string" ? [spec.target] : []), ...(Array.isArray(spec.targets) ? spec.targets : [])];
  const files: string[] = [];
  const notes: UnmappedNote[] = [];
  targets.forEach((t, i) => {
    const field = typeof spec.target === "string" && i === 0 ? "spec.target" : `spec.targets[${typeof spec.target === "string" ? i - 1 : i}]`;
    const path = typeof t === "string" ? resolveInRepo(entity.file, t) : null;
    if (path) files.push(path);
    else notes.push({ entity: entity.label, field, message: `${typeof t === "string" ? JSON.stringify(t) : "this target"} is not a file of this repository, so it was not read (import that repository on its own)` });
  });
  if (!targets.length) notes.push({ entity: entity.label, field: "spec", message: "the Location names no target" });
  return { files, notes };
}
