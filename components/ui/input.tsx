import type { InputHTMLAttributes, Ref } from "react";

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input className={["ui-input", className].filter(Boolean).join(" ")} {...props} />;
}
