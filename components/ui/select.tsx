import type { Ref, SelectHTMLAttributes } from "react";

export function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return <select className={["ui-select", className].filter(Boolean).join(" ")} {...props} />;
}
