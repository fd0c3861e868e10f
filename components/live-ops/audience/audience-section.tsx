"use client";
// The audience of a definition as the form edits it: the builder, its faults at their controls, and the
// live count "matches N of M players now" (POST audience/count, debounced, within the rollout when
// one is set). A fault the service finds in a rule the builder let through is placed the same way.
import { useMemo } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useDebounced } from "@/components/hooks/use-debounced";
import { ApiError } from "@/components/http/api-client";
import type { AudienceRule } from "@/lib/offers-client/schemas";
import { describeLiveOpsError, useLiveOpsApi } from "../api";
import { formatCount } from "../format";
import { AudienceBuilder } from "./audience-builder";
import { audienceFaults, faultCount, placeIssues, type Currency, type GroupDraft } from "./audience-model";
import styles from "../live-ops.module.css";

export interface AudienceSectionProps {
  gameId: string;
  currencies: Currency[];
  value: GroupDraft;
  onChange: (next: GroupDraft) => void;
  /** The rollout percentage when it is a number below 100, and the offerId its draw depends on. */
  rollout?: { percent: number; offerId: string } | null;
}

export function AudienceSection({ gameId, currencies, value, onChange, rollout }: AudienceSectionProps) {
  const { built, faults } = useMemo(() => audienceFaults(value), [value]);
  const valid = faults.size === 0;
  const request = useMemo(
    () => (valid ? JSON.stringify({ audience: built.rule, ...(rollout ? { rollout: rollout.percent, offerId: rollout.offerId } : {}) }) : null),
    [valid, built, rollout],
  );
  const asked = useDebounced(request, 400);
  const { api, keys } = useLiveOpsApi();
  const count = useQuery({
    queryKey: keys.audienceCount(gameId, asked),
    queryFn: ({ signal }) => api.audienceCount(gameId, JSON.parse(asked!) as { audience: AudienceRule }, signal),
    enabled: asked !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

  // The service's own faults of the rule it was asked about, placed at their controls while that rule is on screen.
  const shown = useMemo(() => {
    const error = count.error;
    if (!(error instanceof ApiError) || error.code !== "invalid-request" || asked !== request) return faults;
    const issues = error.issues.filter((i) => i.path[0] === "audience").map((i) => ({ path: i.path.slice(1), message: i.message }));
    return placeIssues(issues, built, new Map(faults));
  }, [count.error, asked, request, faults, built]);

  const problems = faultCount(shown);
  const settling = request !== asked || count.isFetching;
  return (
    <div className="stack">
      <AudienceBuilder value={value} onChange={onChange} currencies={currencies} faults={shown} />
      <p className={styles.audienceCount} role="status" aria-live="polite" data-testid="audience-count" data-settled={!settling && count.isSuccess ? "true" : "false"}>
        {problems > 0 ? (
          `Fix ${problems === 1 ? "the problem" : `the ${problems} problems`} above to see how many players match.`
        ) : count.isError && !(count.error instanceof ApiError && count.error.code === "invalid-request") ? (
          describeLiveOpsError(count.error)
        ) : count.data ? (
          <>
            Matches <strong>{formatCount(count.data.matching)}</strong> of {formatCount(count.data.players)} players now
            {rollout ? ` (inside the ${rollout.percent}% rollout)` : ""}
            {settling ? "…" : "."}
          </>
        ) : (
          "Counting players…"
        )}
      </p>
    </div>
  );
}
