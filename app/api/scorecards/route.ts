// GET /api/scorecards — the scorecard rules in force and the catalog's components per level.
import { ScorecardsAnswer } from "@/lib/portal/contracts/scorecards";
import { scorecardOverview } from "@/lib/portal/scorecards";
import { json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The rules in force and the components per level", schema: ScorecardsAnswer } } },
  handler: async ({ services }) => json(scorecardOverview(await services.catalog())),
});
