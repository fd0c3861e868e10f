// The contract of /api/scorecards: the rules in force (as the config repository holds them) and the
// catalog's components per level. zod only: browser code imports it.
import { z } from "zod";
import { scorecardRulesSchema } from "@/lib/catalog/scorecards";

export const LevelRollup = z.object({
  components: z.number().int(),
  levels: z.record(z.string(), z.number().int()).describe('Components per level, and "none" for those below the lowest'),
  score: z.number().nullable().describe("Rules passed over rules applying, over these components (null when no rule applies)"),
});

/** GET /api/scorecards */
export const ScorecardsAnswer = z.object({
  rules: scorecardRulesSchema.describe("The rules in force: scorecards/rules.yaml of the config repository, or the defaults without it"),
  rollup: LevelRollup,
  commit: z.string().nullable().describe("The config repository commit the levels were computed at"),
});
export type ScorecardsAnswer = z.infer<typeof ScorecardsAnswer>;
