"use client";
import { useEffect, useRef, type ReactNode } from "react";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom right. */
  actions?: ReactNode;
}

/** A modal dialog over the native <dialog> element (Escape and the backdrop close it). */
export function Dialog({ open, onClose, title, children, actions }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="ui-dialog"
      onClose={onClose}
      onClick={(event) => {
        // A click on the backdrop closes, but not the second click of a double-click: that is the
        // click which opened the dialog, landing on the backdrop once the dialog covers the page.
        if (event.target === ref.current && event.detail < 2) onClose();
      }}
    >
      {open ? (
        <div className="ui-dialog__body">
          <h2>{title}</h2>
          {children}
          {actions ? <div className="ui-dialog__actions">{actions}</div> : null}
        </div>
      ) : null}
    </dialog>
  );
}
