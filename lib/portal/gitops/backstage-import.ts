/**
 * The import from Backstage: reads a repository's catalog-info.yaml (and the files its Location entities
 * name in the same repository), maps the entities to records (lib/catalog/backstage/map.ts) and answers one
 * result per Component entity, with the report of what did not map. import.ts writes the records.
 */
import type { ScmProvider } from "../../scm/types";
import { CATALOG_FILE, CATALOG_FILES_MAX, ENTITIES_MAX, locationTargets, parseCatalogFile, type BackstageEntity } from "../../catalog/backstage/parse";
import { mapBackstage, type BackstageMapping, type MapContext, type UnmappedNote } from "../../catalog/backstage/map";

export interface BackstageRead {
  entities: BackstageEntity[];
  /** What could not be read: a missing or invalid file, a Location target elsewhere, too many entities. */
  notes: UnmappedNote[];
  /** Files read, in order (catalog-info.yaml first). */
  files: string[];
}

/** Reads the catalog files of `repo` (breadth first from catalog-info.yaml); never throws for their contents. */
export async function readBackstageRepository(scm: Pick<ScmProvider, "readFile">, repo: string): Promise<BackstageRead> {
  const entities: BackstageEntity[] = [];
  const notes: UnmappedNote[] = [];
  const files: string[] = [];
  const queue = [CATALOG_FILE];
  const queued = new Set(queue);
  while (queue.length) {
    const file = queue.shift() as string;
    if (files.length >= CATALOG_FILES_MAX) {
      notes.push({ entity: file, field: "", message: `not read: at most ${CATALOG_FILES_MAX} catalog files are read from one repository` });
      continue;
    }
    const text = await scm.readFile(repo, file);
    if (text === null) {
      notes.push({ entity: file, field: "", message: file === CATALOG_FILE ? `the repository has no ${CATALOG_FILE} at its root, so there is nothing to import from Backstage` : "no such file in the repository" });
      continue;
    }
    files.push(file);
    const parsed = parseCatalogFile(file, text);
    notes.push(...parsed.notes);
    for (const entity of parsed.entities) {
      if (entities.length >= ENTITIES_MAX) {
        notes.push({ entity: entity.label, field: "", message: `not read: at most ${ENTITIES_MAX} entities are read from one repository` });
        continue;
      }
      entities.push(entity);
      if (entity.kind !== "location") continue;
      const targets = locationTargets(entity);
      notes.push(...targets.notes);
      for (const target of targets.files) {
        if (queued.has(target)) continue;
        queued.add(target);
        queue.push(target);
      }
    }
  }
  return { entities, notes, files };
}

/** Reads and maps one repository: the records to write, the entities that failed, and every note. */
export async function mapBackstageRepository(scm: Pick<ScmProvider, "readFile">, ctx: MapContext): Promise<BackstageMapping> {
  const read = await readBackstageRepository(scm, ctx.repoPath);
  const mapping = mapBackstage(read.entities, ctx);
  return { ...mapping, unmapped: [...read.notes, ...mapping.unmapped] };
}

/** The report as the merge request's description carries it (the first `max` notes). */
export function reportText(notes: ReadonlyArray<UnmappedNote & { repository: string }>, max = 60): string {
  if (!notes.length) return "Everything in the Backstage entities mapped to the records.";
  const lines = notes.slice(0, max).map((n) => `- ${n.repository} · ${n.entity}${n.field ? ` · ${n.field}` : ""}: ${n.message}`);
  if (notes.length > max) lines.push(`- … and ${notes.length - max} more (the import's preview lists them all)`);
  return `Not mapped from Backstage (${notes.length}):\n${lines.join("\n")}`;
}
