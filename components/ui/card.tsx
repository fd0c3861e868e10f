import type { HTMLAttributes, ReactNode } from "react";

export function Card({ title, className, children, ...props }: Omit<HTMLAttributes<HTMLElement>, "title"> & { title?: ReactNode }) {
  return (
    <section className={["ui-card", className].filter(Boolean).join(" ")} {...props}>
      {title ? <h2 className="ui-card__title">{title}</h2> : null}
      {children}
    </section>
  );
}
