"use client";
// An operator proposes a new text of the scorecard rules: it is checked as the catalog will load it and
// opened as a merge request; operators merge it under Reviews, and every component is scored again.
import { useState } from "react";
import { Link } from "@/components/ui/link";
import { Alert, Button, Field, Textarea } from "@/components/ui";
import { apiFetch, describeApiError, ApiError } from "@/components/http/api-client";
import { useSingleFlightMutation } from "@/components/forms/use-single-flight-mutation";
import { tooLongSentence, lengthHint } from "@/components/forms/sentences";
import { RULES_TEXT_MAX, type RulesProposalAnswer } from "@/lib/portal/contracts/scorecards";

function proposeRules(yaml: string): Promise<RulesProposalAnswer> {
  return apiFetch("/api/scorecards/rules", { method: "POST", json: { yaml } });
}

export function RulesEditor({ initialText, file }: { initialText: string; file: string }) {
  const [text, setText] = useState(initialText);
  const propose = useSingleFlightMutation({ mutationFn: proposeRules });
  const tooLong = text.length > RULES_TEXT_MAX ? tooLongSentence("The rules file", RULES_TEXT_MAX, text.length) : undefined;
  const error = propose.error;
  const answer = propose.data;
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (!tooLong) propose.mutate(text);
      }}
      data-testid="rules-editor"
    >
      <Field label={`New text of ${file}`} hint={lengthHint(RULES_TEXT_MAX)} error={tooLong}>
        {(id) => (
          <Textarea
            id={id}
            rows={18}
            spellCheck={false}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              if (propose.data || propose.error) propose.reset();
            }}
            aria-invalid={tooLong ? true : undefined}
            data-testid="rules-text"
          />
        )}
      </Field>
      <div className="row">
        <Button type="submit" variant="primary" disabled={propose.isPending || Boolean(tooLong)} data-testid="propose-rules">
          {propose.isPending ? "Proposing…" : "Propose for review"}
        </Button>
      </div>
      {answer ? (
        <Alert tone="success" data-testid="rules-outcome">
          {answer.changed && answer.mergeRequest ? (
            <>
              Merge request !{answer.mergeRequest.iid} opened. <Link href={answer.reviewUrl ?? "/reviews"}>Review and merge it</Link>: the levels move once it is merged.
            </>
          ) : (
            "The rules file already holds this text: nothing to propose."
          )}
        </Alert>
      ) : null}
      {error ? (
        <Alert tone="error" data-testid="rules-error">
          {describeApiError(error)}
          {error instanceof ApiError && error.issues.length ? (
            <ul>
              {error.issues.map((i) => (
                <li key={`${i.path.join(".")}:${i.message}`}>
                  {i.path.length ? <code>{i.path.join(".")}</code> : null} {i.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
    </form>
  );
}
