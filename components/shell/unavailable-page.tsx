"use client";
// What a page shows when it cannot be rendered (app/error.tsx, app/(portal)/error.tsx). It asks /health
// why: while the portal's database is down it says so and retries by itself until the page renders.
import { useEffect, useState } from "react";
import { Alert, Card, Button, ButtonLink } from "@/components/ui";
import { apiFetch } from "@/components/http/api-client";
import styles from "./shell.module.css";

type Cause = "checking" | "database" | "other";

const RETRY_MS = 5_000;

/** /health answers 200 while the portal's database does, 503 while it does not. */
function databaseAnswers(): Promise<boolean> {
  return apiFetch("/health", { cache: "no-store" }).then(
    () => true,
    () => false,
  );
}

export function UnavailablePage({ error, retry }: { error: Error & { digest?: string }; retry: () => void }) {
  const [cause, setCause] = useState<Cause>("checking");

  useEffect(() => {
    let live = true;
    void databaseAnswers().then((ok) => {
      if (live) setCause(ok ? "other" : "database");
    });
    return () => {
      live = false;
    };
  }, [error]);

  // While the database is away, try again as soon as it answers.
  useEffect(() => {
    if (cause !== "database") return;
    const timer = setInterval(() => {
      void databaseAnswers().then((ok) => {
        if (ok) retry();
      });
    }, RETRY_MS);
    return () => clearInterval(timer);
  }, [cause, retry]);

  return (
    <div className={`stack ${styles.messagePage}`} data-testid="unavailable-page">
      <Card className="stack">
        <h1>Temporarily unavailable</h1>
        {cause === "database" ? (
          <Alert tone="warning" data-testid="unavailable-cause">
            The portal&apos;s database is not answering, so this page cannot be shown right now. It usually comes back by itself: this page tries
            again every few seconds.
          </Alert>
        ) : (
          <p className="muted" data-testid="unavailable-cause">
            {cause === "checking" ? "This page could not be shown." : "This page could not be shown. Try again; if it keeps failing, tell the platform team."}
            {error.digest ? (
              <>
                {" "}
                Reference: <code>{error.digest}</code>
              </>
            ) : null}
          </p>
        )}
        <div className="row">
          <Button variant="primary" onClick={() => retry()}>
            Try again
          </Button>
          <ButtonLink href="/">Home</ButtonLink>
        </div>
      </Card>
    </div>
  );
}
