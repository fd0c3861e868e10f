"use client";
import { useState, type ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";

/**
 * A secret the server shows this once (a new API token, a webhook signing secret): the warning, the
 * value, and a copy button that says when the clipboard took it. A new value starts uncopied.
 */
export function ShownOnceSecret({ value, warning, note, testId }: { value: string; warning: ReactNode; note?: ReactNode; testId: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="stack">
      <Alert tone="warning">{warning}</Alert>
      <code className="ui-secret" data-testid={testId}>
        {value}
      </code>
      {note ? <p className="muted">{note}</p> : null}
      <div>
        <Button
          size="small"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).then(
              () => setCopied(value),
              () => setCopied(null),
            );
          }}
        >
          {copied === value ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}
