/**
 * A change of one record's file, built before anything is written: If-Match against the committed
 * text, a merge patch or a whole record, validation, and the new text rendered with comments and key
 * order kept, read back as the loader will read it. Catalog.update() commits it; Catalog.renderUpdate()
 * shows it for review.
 */
import { etagOf, parseComponentText, type ParseResult } from "./parse";
import { validateComponent, type Component, type FieldIssue } from "./schema";
import type { CatalogEntry } from "./search";
import { isPlainObject, mergePatch, renderUpdate } from "./writeback";
import { CatalogWriteError, issuesOfFields } from "./errors";

/** The new text of a record's file for an update, checked as Catalog.update() checks it. Pure but for the errors it throws. */
export function buildRecordUpdate(
  entry: CatalogEntry,
  text: string,
  request: { mode: "replace" | "merge"; body: unknown; ifMatch: string },
): { changed: false; component: Component } | { changed: true; newText: string; component: Component; reread: ParseResult & { ok: true } } {
  const name = entry.name;
  if (request.mode === "merge" && !isPlainObject(request.body)) {
    throw new CatalogWriteError("invalid-record", "a PATCH body must be a JSON object (merge patch)", { issues: [{ path: [], message: "expected a mapping" }] });
  }
  const etag = etagOf(text);
  if (!etagMatches(request.ifMatch, etag)) {
    throw new CatalogWriteError("precondition-failed", "the component changed since you loaded it; reload and apply your change again", { fields: { etag } });
  }
  const committed = parseComponentText(entry.file, text);
  const baseRecord = committed.ok ? committed.component : entry.component;
  const candidate = request.mode === "merge" ? mergePatch(baseRecord, request.body) : request.body;
  const checked = validateComponent(candidate);
  if (!checked.ok) throw invalidRecord(checked.issues);
  if (checked.component.metadata.name !== name) {
    throw new CatalogWriteError("invalid-record", "metadata.name cannot be changed", { issues: [{ path: ["metadata", "name"], message: `must stay "${name}"` }] });
  }
  const newText = renderUpdate(text, checked.component as unknown as Record<string, unknown>);
  if (newText === text) return { changed: false, component: checked.component };
  // Validate what will be written exactly as the loader will read it back.
  const reread = parseComponentText(entry.file, newText);
  if (!reread.ok) throw invalidRecord(reread.errors.map((e) => ({ path: e.path, message: e.message })));
  return { changed: true, newText, component: reread.component, reread };
}

/** If-Match: "*" or a list of (possibly weak) ETags. */
export function etagMatches(ifMatch: string, etag: string): boolean {
  const wanted = ifMatch.split(",").map((t) => t.trim().replace(/^W\//, ""));
  return wanted.includes("*") || wanted.includes(etag);
}

function invalidRecord(issues: FieldIssue[]): CatalogWriteError {
  const first = issues[0];
  const where = first ? `: ${first.path ? `${first.path}: ` : ""}${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}` : "";
  return new CatalogWriteError("invalid-record", `the record is not valid${where}`, { issues: issuesOfFields(issues) });
}
