import type { Ref, TextareaHTMLAttributes } from "react";

export function Textarea({ className, ...props }: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return <textarea className={["ui-textarea", className].filter(Boolean).join(" ")} {...props} />;
}
