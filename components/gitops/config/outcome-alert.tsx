// What a config save did: a merge request opened, a commit, or a live change.
import { Alert, Button } from "@/components/ui";
import type { ConfigWriteResult } from "../api";

export function OutcomeAlert({ outcome, onShowMergeRequests, onDismiss }: { outcome: ConfigWriteResult; onShowMergeRequests: () => void; onDismiss: () => void }) {
  const envs = Object.keys(outcome.environments).join(", ");
  return (
    <Alert tone="success" data-testid="config-outcome">
      {outcome.mode === "merge_request" ? (
        <>
          Merge request <strong>!{outcome.mergeRequest.iid}</strong> opened: {outcome.mergeRequest.title}. Branch <code>{outcome.mergeRequest.sourceBranch}</code> →{" "}
          <code>{outcome.mergeRequest.targetBranch}</code>; the values change when it is merged.{" "}
          {outcome.mergeRequest.webUrl ? (
            <a href={outcome.mergeRequest.webUrl} target="_blank" rel="noreferrer">
              Open it
            </a>
          ) : null}{" "}
          <Button size="small" onClick={onShowMergeRequests} data-testid="show-merge-requests">
            Show merge requests
          </Button>
        </>
      ) : outcome.mode === "commit" ? (
        outcome.changed ? (
          <>
            Committed {outcome.commit ? <code>{outcome.commit.slice(0, 8)}</code> : null} to the config repository ({envs}). The next release makes it current.
          </>
        ) : (
          <>Nothing changed: the config repository already holds these values.</>
        )
      ) : (
        <>{outcome.changed ? `Live values of ${envs} changed; they show as drift until persisted.` : "Nothing changed."}</>
      )}{" "}
      <Button size="small" variant="ghost" onClick={onDismiss} aria-label="Dismiss">
        ✕
      </Button>
    </Alert>
  );
}
