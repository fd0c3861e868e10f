"use client";
import type { ReactNode } from "react";
import { ModalFrame } from "./modal-frame";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom right. */
  actions?: ReactNode;
}

/** A modal dialog that shows something (Escape and the backdrop close it); a dialog that sends a form is a FormDialog. */
export function Dialog({ open, onClose, title, children, actions }: DialogProps) {
  return (
    <ModalFrame open={open} onClose={onClose} title={title}>
      {children}
      {actions ? <div className="ui-dialog__actions">{actions}</div> : null}
    </ModalFrame>
  );
}
