// What a portal page shows while the server renders it (app/(portal)/loading.tsx and its sections):
// the page's shape in grey, so the header stays and nothing jumps when the page arrives.
import { Card } from "@/components/ui";
import styles from "./shell.module.css";

export function PageLoading({ what = "this page", cards = 2 }: { what?: string; cards?: number }) {
  return (
    <div className="stack" aria-busy="true" data-testid="page-loading">
      <p className={`muted ${styles.flush}`} role="status">
        <span className="shell-spinner" aria-hidden="true" />
        Loading {what}…
      </p>
      <div className="shell-loading__line shell-loading__line--title" aria-hidden="true" />
      {Array.from({ length: cards }, (_, i) => (
        <Card key={i} aria-hidden="true">
          <div className="stack">
            <div className={`shell-loading__line ${styles.lineLong}`} />
            <div className={`shell-loading__line ${styles.lineShort}`} />
            <div className={`shell-loading__line ${styles.lineMedium}`} />
          </div>
        </Card>
      ))}
    </div>
  );
}
