"use client";
import { Button, Dialog, ShownOnceSecret } from "@/components/ui";
import type { CreatedToken } from "./api";

/** The new token, shown this once, with a copy button. */
export function CreatedTokenDialog({ token, onClose }: { token: CreatedToken | null; onClose: () => void }) {
  return (
    <Dialog
      open={token !== null}
      onClose={onClose}
      title="Your new token"
      actions={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <ShownOnceSecret value={token?.token ?? ""} warning="Copy it now: it is not shown again." testId="new-token" />
    </Dialog>
  );
}
