/**
 * A change of the scorecard rules, by review: the new text of scorecards/rules.yaml, checked as the
 * catalog will load it, proposed as a branch and a merge request of the config repository. Its branch's
 * scope is not a component name, so operators decide it (lib/portal/gitops/reviews.ts); when it merges,
 * every instance scores the catalog under the new rules at the commit it follows.
 */
import "server-only";
import type { Catalog } from "../catalog/catalog";
import { parseScorecardRules, SCORECARD_RULES_FILE } from "../catalog/scorecards";
import { ScmError, type ScmMergeRequest } from "../scm/types";
import type { ConfigRepository } from "./gitops/config-repo";
import type { PortalDatabase } from "./db/database";
import { PortalError } from "./errors";
import type { PortalUser } from "./roles";
import { recordAudit, type AuditContext } from "./audit";

/** The scope of the rules' merge requests: portal/_scorecards/… (an underscore: never a component's name). */
export const SCORECARD_RULES_SCOPE = "_scorecards";

/** The rules file as committed now (the shipped rules' text when the repository has none). */
export async function committedScorecardRules(catalog: Catalog): Promise<{ text: string | null }> {
  return { text: await catalog.store.readText(SCORECARD_RULES_FILE).catch(() => null) };
}

export type RulesProposal = { changed: false } | { changed: true; mergeRequest: ScmMergeRequest };

export async function proposeScorecardRules(
  deps: { db: PortalDatabase; catalog: Catalog; config: ConfigRepository },
  user: Pick<PortalUser, "id" | "name" | "email">,
  text: string,
  audit?: AuditContext,
): Promise<RulesProposal> {
  const parsed = parseScorecardRules(text);
  if (!parsed.ok) {
    const first = parsed.issues[0];
    throw new PortalError("invalid-config", `${SCORECARD_RULES_FILE} would not load: ${first.path ? `${first.path}: ` : ""}${first.message}`, {
      issues: parsed.issues.map((i) => ({ path: i.path ? i.path.split(".") : [], message: i.message })),
    });
  }
  const { text: current } = await committedScorecardRules(deps.catalog);
  if (current === text) return { changed: false };
  let mergeRequest: ScmMergeRequest;
  try {
    mergeRequest = await deps.config.propose({
      scope: SCORECARD_RULES_SCOPE,
      files: [{ path: SCORECARD_RULES_FILE, content: text }],
      title: "Scorecard rules",
      description: `Proposed in the portal by ${user.id}.\n\nFile: ${SCORECARD_RULES_FILE}\nOperators review and merge it; every component is scored again under the new rules.`,
      author: { id: user.id, name: user.name, email: user.email },
    });
  } catch (e) {
    if (e instanceof ScmError) throw new PortalError(e.code === "conflict" ? "conflict" : "source-control-failed", `the change could not be proposed: ${e.message}`, { cause: e });
    throw e;
  }
  if (audit) {
    await recordAudit(
      deps.db,
      audit,
      {
        action: "merge-request.propose",
        targetType: "catalog",
        target: SCORECARD_RULES_FILE,
        summary: `proposed a change to the scorecard rules in merge request !${mergeRequest.iid}`,
        before: current === null ? null : { rules: current },
        after: { rules: text, mergeRequest: mergeRequest.iid },
      },
      "after-remote-change",
    );
  }
  return { changed: true, mergeRequest };
}
