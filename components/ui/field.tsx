import { useId, type ReactNode } from "react";

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** Renders the control, given the id its label points at. */
  children: (id: string) => ReactNode;
}

/** A labelled form control with an optional hint and error; a field with an error is outlined. */
export function Field({ label, hint, error, children }: FieldProps) {
  const id = useId();
  return (
    <div className={error ? "ui-field ui-field--invalid" : "ui-field"}>
      <label className="ui-field__label" htmlFor={id}>
        {label}
      </label>
      {children(id)}
      {hint ? <span className="ui-field__hint">{hint}</span> : null}
      {error ? (
        <span className="ui-field__error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}
