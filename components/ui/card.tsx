import type { HTMLAttributes, ReactNode } from "react";

export function Card({ title, className, children, ...props }: Omit<HTMLAttributes<HTMLElement>, "title"> & { title?: ReactNode }) {
  return (
    <section className={["ui-card", className].filter(Boolean).join(" ")} {...props}>
      {title ? <h2 className="ui-card__title">{title}</h2> : null}
      {children}
    </section>
  );
}

export function Alert({ tone = "info", className, ...props }: HTMLAttributes<HTMLDivElement> & { tone?: "info" | "error" | "success" | "warning" }) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={["ui-alert", tone !== "info" && `ui-alert--${tone}`, className].filter(Boolean).join(" ")}
      {...props}
    />
  );
}
