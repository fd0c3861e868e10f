import type { ReactNode } from "react";

/** An error under a group of controls (a fieldset), where no single Field holds it. */
export function FieldError({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <span className="ui-field__error" role="alert">
      {children}
    </span>
  );
}
