"use client";
import { useState } from "react";
import { Alert, Button, Dialog } from "@/components/ui";
import type { CreatedToken } from "./api";

/** The new token, shown this once, with a copy button. */
export function CreatedTokenDialog({ token, onClose }: { token: CreatedToken | null; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCopied(false);
    onClose();
  };
  return (
    <Dialog
      open={token !== null}
      onClose={close}
      title="Your new token"
      actions={
        <Button variant="primary" onClick={close}>
          Done
        </Button>
      }
    >
      <div className="stack">
        <Alert tone="warning">Copy it now: it is not shown again.</Alert>
        <code className="ui-secret" data-testid="new-token">
          {token?.token}
        </code>
        <div>
          <Button
            size="small"
            onClick={async () => {
              if (token) await navigator.clipboard?.writeText(token.token).then(() => setCopied(true), () => setCopied(false));
            }}
          >
            {copied ? "Copied" : "Copy"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
