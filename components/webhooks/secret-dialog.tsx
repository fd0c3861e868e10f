"use client";
import { useState } from "react";
import { Alert, Button, Dialog } from "@/components/ui";

/** A signing secret, shown this once (after adding an endpoint or rotating its secret), with a copy button. */
export function SecretDialog({ shown, onClose }: { shown: { title: string; secret: string; note?: string } | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog
      open={shown !== null}
      onClose={close}
      title={shown?.title ?? ""}
      actions={
        <Button variant="primary" onClick={close}>
          Done
        </Button>
      }
    >
      <div className="stack">
        <Alert tone="warning">Copy the signing secret now: it is not shown again. Your game server verifies every delivery with it.</Alert>
        <code className="ui-secret" data-testid="signing-secret">
          {shown?.secret}
        </code>
        {shown?.note ? <p className="muted">{shown.note}</p> : null}
        <div>
          <Button
            size="small"
            onClick={async () => {
              if (shown) await navigator.clipboard?.writeText(shown.secret).then(() => setCopied(true), () => setCopied(false));
            }}
          >
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
