"use client";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import type { ButtonVariant } from "./button-classes";
import { ModalFrame } from "./modal-frame";

export interface FormDialogProps {
  open: boolean;
  onClose: () => void;
  /** The heading, which names the dialog. */
  title: ReactNode;
  /**
   * Sends the form: react-hook-form's `handleSubmit(...)` or a plain function. A promise it answers keeps
   * the form locked until it settles (so a request made with `mutateAsync` cannot be sent twice); a
   * rejection is the request's failure, which the owner shows through `error`.
   */
  onSubmit: (event: FormEvent<HTMLFormElement>) => unknown;
  /** A request of the owner's is in flight: the same lock as a pending promise. */
  pending?: boolean;
  submitLabel: ReactNode;
  /** What the submit button says while locked ("Saving…"). */
  pendingLabel?: ReactNode;
  submitVariant?: Exclude<ButtonVariant, "ghost">;
  /** The form cannot be sent as it stands (nothing to send). */
  submitDisabled?: boolean;
  /** Focus the submit button when the dialog opens (a confirmation) rather than the first field. */
  focusSubmit?: boolean;
  /** What went wrong, in words (the server's detail): shown above the buttons. */
  error?: ReactNode;
  submitTestId?: string;
  children?: ReactNode;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> => typeof (value as PromiseLike<unknown> | null)?.then === "function";

/**
 * A dialog holding a form, its Cancel and submit buttons. While a request is in flight the submit button
 * is disabled (no double submit) and the dialog stays open (Cancel, Escape and the backdrop wait), so the
 * outcome shows where it was asked for.
 */
export function FormDialog({ open, onClose, title, onSubmit, pending = false, submitLabel, pendingLabel, submitVariant = "primary", submitDisabled = false, focusSubmit = false, error, submitTestId, children }: FormDialogProps) {
  const [sending, setSending] = useState(false);
  // Set at once, before React renders the disabled button: a second submit in the same moment is refused.
  const locked = useRef(false);
  const busy = pending || sending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || locked.current) return;
    const result = onSubmit(event);
    if (!isThenable(result)) return;
    locked.current = true;
    setSending(true);
    const unlock = () => {
      locked.current = false;
      setSending(false);
    };
    result.then(unlock, unlock);
  };

  return (
    <ModalFrame open={open} onClose={onClose} title={title} dismissible={!busy}>
      <form className="ui-dialog__form" onSubmit={submit} aria-busy={busy} noValidate>
        {children}
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="ui-dialog__actions">
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant={submitVariant} disabled={busy || submitDisabled} data-testid={submitTestId} data-autofocus={focusSubmit || undefined}>
            {busy && pendingLabel ? pendingLabel : submitLabel}
          </Button>
        </div>
      </form>
    </ModalFrame>
  );
}
