"use client";
import { Button, Dialog, ShownOnceSecret } from "@/components/ui";

/** A signing secret, shown this once (after adding an endpoint or rotating its secret), with a copy button. */
export function SecretDialog({ shown, onClose }: { shown: { title: string; secret: string; note?: string } | null; onClose: () => void }) {
  return (
    <Dialog
      open={shown !== null}
      onClose={onClose}
      title={shown?.title ?? ""}
      actions={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <ShownOnceSecret
        value={shown?.secret ?? ""}
        warning="Copy the signing secret now: it is not shown again. Your game server verifies every delivery with it."
        note={shown?.note}
        testId="signing-secret"
      />
    </Dialog>
  );
}
