// The import wizard's form: the repositories picked and the kind chosen at review ("" keeps the
// inferred one), checked with the catalog's repository path rule, answered as the import's body.
import { z } from "zod";
import { COMPONENT_KINDS, REPO_PATH_PATTERN, type ComponentKind } from "@/lib/catalog/schema";
import type { ImportRequest } from "../api";

export interface ImportForm {
  repositories: Array<{ path: string; kind: ComponentKind | "" }>;
}

export const importFormSchema = z
  .object({
    repositories: z
      .array(z.object({ path: z.string().regex(REPO_PATH_PATTERN, "a repository is <group>/<project>"), kind: z.union([z.enum(COMPONENT_KINDS), z.literal("")]) }))
      .min(1, "pick at least one repository")
      .max(50, "at most 50 repositories at once"),
  })
  .transform(({ repositories }): Array<string | ImportRequest> => repositories.map(({ path, kind }) => (kind ? { path, kind } : path)));
