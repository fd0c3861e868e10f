// GET /api/scorecards/rules — the rules file as committed; POST — propose a new text by review (operators):
// 422 invalid-config with the problems when it would not load, 202 with the merge request, 200 when unchanged.
import { auditContextOf } from "@/lib/portal/audit";
import { RulesFileAnswer, RulesProposalAnswer, RulesProposalBody } from "@/lib/portal/contracts/scorecards";
import { committedScorecardRules, proposeScorecardRules } from "@/lib/portal/scorecard-rules";
import { SCORECARD_RULES_FILE } from "@/lib/catalog/scorecards";
import { GITOPS_FAILURES, json, route } from "@/lib/portal/http";

export const dynamic = "force-dynamic";

export const GET = route({
  doc: { responses: { 200: { description: "The rules file as committed (text null: none, the defaults apply)", schema: RulesFileAnswer } } },
  handler: async ({ services }) => json({ file: SCORECARD_RULES_FILE, ...(await committedScorecardRules(await services.catalog())) }),
});

export const POST = route({
  doc: {
    responses: {
      200: { description: "The file already holds this text: nothing proposed", schema: RulesProposalAnswer },
      202: { description: "Proposed as a merge request that operators review", schema: RulesProposalAnswer },
    },
    errors: ["invalid-config", ...GITOPS_FAILURES],
  },
  role: "operator",
  body: RulesProposalBody,
  handler: async ({ request, user, body, services }) => {
    const proposal = await proposeScorecardRules(await services.gitops(), user, body.yaml, auditContextOf(request, user));
    if (!proposal.changed) return json({ changed: false, mergeRequest: null, reviewUrl: null });
    const { iid, title, webUrl } = proposal.mergeRequest;
    return json({ changed: true, mergeRequest: { iid, title, webUrl }, reviewUrl: `/reviews/${iid}` }, { status: 202 });
  },
});
