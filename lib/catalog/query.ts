/**
 * List query of GET /api/components: search, filters, sort, paging. Shared by the route (parsing
 * URLSearchParams) and the in-memory index (answering it). Client-safe.
 */
import { z } from "zod";
import { COMPONENT_KINDS, DEPENDENCY_FLAGS, ENVIRONMENTS } from "./schema";
import { SCORECARD_NAME_PATTERN } from "./scorecards";

export const SORT_FIELDS = ["name", "displayName", "kind", "repo", "level"] as const;
export const MAX_PAGE_SIZE = 200;

/** Accepts repeated params (?kind=a&kind=b) and comma lists (?kind=a,b). */
function list<T extends z.ZodType<string, string>>(item: T) {
  return z
    .union([z.string(), z.array(z.string())])
    .optional()
    .transform((v) => (v === undefined ? [] : (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean)))
    .pipe(z.array(item));
}

const bool = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** Words, all of which must appear in name, display name, repository path or an owner (user or group). */
export const CatalogSearchText = z.string().max(200);

export const listQuerySchema = z.object({
  q: CatalogSearchText.optional().transform((v) => v?.trim() ?? ""),
  kind: list(z.enum(COMPONENT_KINDS)),
  /** Owner user names (any of). */
  owner: list(z.string().max(100)),
  /** Owner group names (any of). */
  group: list(z.string().max(200)),
  /** Environments (any of); "none" matches components without environments. */
  environment: list(z.enum([...ENVIRONMENTS, "none"])),
  /** Dependency flags (all of). */
  dependency: list(z.enum(DEPENDENCY_FLAGS)),
  /**
   * Scorecard levels (any of); "none" matches components below the lowest level. The levels are those of
   * the rules file in force, so a name that is not one of them is refused by the route (unknownLevels).
   */
  level: list(z.string().regex(SCORECARD_NAME_PATTERN, "a level is lowercase letters, digits and hyphens (at most 40)")),
  /** Only the signed-in user's favorites. */
  favorites: bool,
  /** Only records shown from their last valid version. */
  stale: bool,
  sort: z.enum(SORT_FIELDS).default("name"),
  order: z.enum(["asc", "desc"]).default("asc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(25),
});

export type ListQuery = z.output<typeof listQuerySchema>;

/** URLSearchParams → the object listQuerySchema expects (repeated keys become arrays). */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

export interface FacetCounts {
  kind: Record<string, number>;
  environment: Record<string, number>;
  group: Record<string, number>;
  owner: Record<string, number>;
  dependency: Record<string, number>;
}

export interface ListCounts extends FacetCounts {
  /** Components in the catalog. */
  all: number;
  /** Components matching the query (= total). */
  matching: number;
  /** Files that failed to load. */
  errors: number;
  /** Components shown from their last valid version. */
  stale: number;
  /** The user's favorites. */
  favorites: number;
}

/** The levels of a query that the rules in force do not define ("none" always exists). */
export function unknownLevels(query: Pick<ListQuery, "level">, levels: readonly string[]): string[] {
  return query.level.filter((l) => l !== "none" && !levels.includes(l));
}
