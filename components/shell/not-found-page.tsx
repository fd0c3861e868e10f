// What the portal shows for an address that names nothing (app/not-found.tsx, app/(portal)/not-found.tsx
// and the sections' own): what was not found, and where to go instead.
import type { ReactNode } from "react";
import { ButtonLink, Card } from "@/components/ui";
import styles from "./shell.module.css";

export function NotFoundPage({
  title = "Page not found",
  children = "Nothing lives at this address. It may have moved, or the link may be mistyped.",
  back = { href: "/", label: "Home" },
}: {
  title?: string;
  children?: ReactNode;
  back?: { href: string; label: string };
}) {
  return (
    <div className={`stack ${styles.messagePage}`} data-testid="not-found-page">
      <Card className="stack">
        <h1>{title}</h1>
        <p className={`muted ${styles.flush}`}>
          {children}
        </p>
        <div className="row">
          <ButtonLink href={back.href} variant="primary">
            {back.label}
          </ButtonLink>
          {back.href !== "/" ? <ButtonLink href="/">Home</ButtonLink> : null}
        </div>
      </Card>
    </div>
  );
}
