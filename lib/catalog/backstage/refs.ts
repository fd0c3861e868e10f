/**
 * Backstage entity references (`[kind:][namespace/]name`) and the paths a catalog file names (Location
 * targets, API definitions as `$text: ./openapi.yaml`), resolved inside the repository being imported.
 */

export interface EntityRef {
  /** Lowercase kind: component, api, system, group, user, resource, … */
  kind: string;
  namespace: string;
  name: string;
}

const REF = /^(?:([A-Za-z][A-Za-z0-9-]*):)?(?:([A-Za-z0-9._-]+)\/)?([A-Za-z0-9._-]+)$/;

/** Parses a reference; `defaultKind` applies when it names none (Backstage's rule for each field). Null when it is not a reference. */
export function parseRef(value: unknown, defaultKind: string): EntityRef | null {
  if (typeof value !== "string") return null;
  const m = REF.exec(value.trim());
  if (!m) return null;
  return { kind: (m[1] ?? defaultKind).toLowerCase(), namespace: m[2] ?? "default", name: m[3] };
}

/** How the report names an entity: Backstage's own form, `component:default/checkout`. */
export function refText(ref: EntityRef): string {
  return `${ref.kind}:${ref.namespace}/${ref.name}`;
}

/** The folder of a file path in the repository ("" at the root). */
export function dirOf(file: string): string {
  const i = file.lastIndexOf("/");
  return i < 0 ? "" : file.slice(0, i);
}

/**
 * A path a catalog file names, relative to that file, as a path from the repository's root; null when it
 * leaves the repository, is absolute, or is an address (a URL names a file we cannot tie to this repository).
 */
export function resolveInRepo(fromFile: string, target: string): string | null {
  const t = target.trim();
  if (!t || t.startsWith("/") || t.includes("\\") || /^[a-z][a-z0-9+.-]*:/i.test(t)) return null;
  const parts = dirOf(fromFile) ? dirOf(fromFile).split("/") : [];
  for (const part of t.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length ? parts.join("/") : null;
}
