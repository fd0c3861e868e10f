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

/** Longest rules file the portal proposes (characters): 30 rules fit in a few kilobytes. */
export const RULES_TEXT_MAX = 20_000;

/** GET /api/scorecards/rules: the rules file as committed (null when the repository has none: the defaults apply). */
export const RulesFileAnswer = z.object({
  file: z.string(),
  text: z.string().nullable(),
});

/** POST /api/scorecards/rules: the whole new text of the rules file. */
export const RulesProposalBody = z.strictObject({
  yaml: z.string({ error: "yaml must be text" }).max(RULES_TEXT_MAX, `the rules file can be at most ${RULES_TEXT_MAX.toLocaleString("en")} characters`),
});

/** POST /api/scorecards/rules 202: proposed; 200: the file already holds this text (nothing proposed). */
export const RulesProposalAnswer = z.object({
  changed: z.boolean(),
  mergeRequest: z.object({ iid: z.number().int(), title: z.string(), webUrl: z.string().nullable().optional() }).nullable(),
  reviewUrl: z.string().nullable().describe("The portal page of the review"),
});
export type RulesProposalAnswer = z.infer<typeof RulesProposalAnswer>;
