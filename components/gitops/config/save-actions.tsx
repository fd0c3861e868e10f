// Below a config editor's preview: why the last save failed, then save or go back to editing.
import { Alert, Button } from "@/components/ui";
import { describeApiError } from "@/components/http/api-client";

export function SaveActions(props: { label: string; testId: string; pending: boolean; failure: { prefix: string; error: unknown } | null; onSave: () => void; onBack: () => void }) {
  return (
    <>
      {props.failure ? (
        <Alert tone="error">
          {props.failure.prefix}: {describeApiError(props.failure.error)}
        </Alert>
      ) : null}
      <div className="row">
        <Button variant="primary" onClick={props.onSave} disabled={props.pending} data-testid={props.testId}>
          {props.pending ? "Saving…" : props.label}
        </Button>
        <Button variant="ghost" onClick={props.onBack} disabled={props.pending}>
          Back to editing
        </Button>
      </div>
    </>
  );
}
