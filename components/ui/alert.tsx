import type { HTMLAttributes } from "react";

export type AlertTone = "info" | "error" | "success" | "warning";

export function Alert({ tone = "info", className, ...props }: HTMLAttributes<HTMLDivElement> & { tone?: AlertTone }) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={["ui-alert", tone !== "info" && `ui-alert--${tone}`, className].filter(Boolean).join(" ")}
      {...props}
    />
  );
}
