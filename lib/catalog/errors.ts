/**
 * What the catalog's writes refuse (CatalogWriteError; the load errors are ./parse.ts's CatalogError),
 * as semantic codes with no HTTP: the portal's one mapper (lib/portal/http) gives them statuses. The
 * catalog cannot import lib/portal, so its codes live here and the portal's closed union includes them.
 */
import { CodedError, type ErrorIssue } from "../errors";
import type { FieldIssue } from "./schema";

export const CATALOG_ERROR_CODES = [
  // no record of that name
  "not-found",
  // If-Match names another version than the committed one
  "precondition-failed",
  // the record (or patch result) does not validate
  "invalid-record",
  // the commit could not be made (another writer, the remote refused)
  "conflict",
] as const;

export type CatalogErrorCode = (typeof CATALOG_ERROR_CODES)[number];

export class CatalogWriteError extends CodedError<CatalogErrorCode> {
  static readonly brand: string = "catalog.CatalogWriteError";

  constructor(code: CatalogErrorCode, detail: string, options: ConstructorParameters<typeof CodedError>[2] = {}) {
    super(code, detail, options);
    this.name = "CatalogWriteError";
  }
}

/** The catalog's readable issues with their paths as key arrays (`spec.owners[0].user` → spec, owners, 0, user). */
export function issuesOfFields(issues: FieldIssue[]): ErrorIssue[] {
  return issues.map((i) => ({ path: i.keys ?? splitFieldPath(i.path), message: i.message }));
}

function splitFieldPath(path: string): string[] {
  return path.split(/[.[\]]+/).filter(Boolean);
}
