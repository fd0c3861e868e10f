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
      .array(
        z.object({
          path: z.string().regex(REPO_PATH_PATTERN, "A repository is named by its group and its project, such as games/leaderboards."),
          kind: z.union([z.enum(COMPONENT_KINDS), z.literal("")]),
        }),
      )
      .min(1, "Pick at least one repository to import.")
      .max(50, "You can import at most 50 repositories at once: import the rest in a second round."),
  })
  .transform(({ repositories }): Array<string | ImportRequest> => repositories.map(({ path, kind }) => (kind ? { path, kind } : path)));
