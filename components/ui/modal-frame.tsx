"use client";
import { useEffect, useId, useRef, type ReactNode } from "react";

export interface ModalFrameProps {
  open: boolean;
  /** Called once the dialog has closed (Escape, the backdrop, or its owner setting `open` to false). */
  onClose: () => void;
  /** The heading, which names the dialog. */
  title: ReactNode;
  /** While false, Escape and a click on the backdrop leave the dialog open (a request in flight). */
  dismissible?: boolean;
  children: ReactNode;
}

const FIELDS = "input:not([type=hidden]):not(:disabled), select:not(:disabled), textarea:not(:disabled)";
const CONTROLS = `${FIELDS}, button:not(:disabled), a[href], [tabindex]:not([tabindex="-1"])`;

/** Where focus goes when a dialog opens: a control marked data-autofocus, else the first field, else the first control. */
function initialFocus(dialog: HTMLDialogElement): HTMLElement | null {
  return dialog.querySelector<HTMLElement>("[data-autofocus]:not(:disabled)") ?? dialog.querySelector<HTMLElement>(FIELDS) ?? dialog.querySelector<HTMLElement>(CONTROLS);
}

/**
 * The modal behind Dialog and FormDialog: the native <dialog> with showModal (focus stays inside, the
 * page behind is inert), named by its title. Every way of closing goes through dialog.close(), whose
 * close event tells the owner once. Focus returns to the control that had it before the dialog opened.
 */
export function ModalFrame({ open, onClose, title, dismissible = true, children }: ModalFrameProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!open || !dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus(dialog)?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  const dismiss = () => {
    if (dismissible) ref.current?.close();
  };
  return (
    <dialog
      ref={ref}
      className="ui-dialog"
      aria-labelledby={titleId}
      onKeyDown={(event) => {
        if (event.key !== "Escape" || event.nativeEvent.isComposing) return;
        // Handled here rather than left to the browser: the same everywhere, and refused while busy.
        event.preventDefault();
        dismiss();
      }}
      onCancel={(event) => {
        if (!dismissible) event.preventDefault();
      }}
      onClose={() => {
        // A browser may close a modal without letting it refuse; while busy, it opens again.
        if (open && !dismissible) ref.current?.showModal();
        else onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop closes, but not the second click of a double-click: that is the
        // click which opened the dialog, landing on the backdrop once the dialog covers the page.
        if (event.target === ref.current && event.detail < 2) dismiss();
      }}
    >
      {open ? (
        <div className="ui-dialog__body">
          <h2 id={titleId}>{title}</h2>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
