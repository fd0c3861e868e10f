import type { HTMLAttributes } from "react";

export type BadgeTone = "neutral" | "accent" | "success" | "warning" | "danger";

export function Badge({ tone = "neutral", className, ...props }: HTMLAttributes<HTMLSpanElement> & { tone?: BadgeTone }) {
  return <span className={["ui-badge", tone !== "neutral" && `ui-badge--${tone}`, className].filter(Boolean).join(" ")} {...props} />;
}
