// What a portal page shows to someone signed out: what the page is, why to sign in, and the way back to it.
import { ButtonLink } from "@/components/ui";
import styles from "./shell.module.css";

export function SignInNeeded({ title, reason, next }: { title: string; reason: string; next: string }) {
  return (
    <div className={`stack ${styles.notice}`} data-testid="signed-out">
      <h1>{title}</h1>
      <p className="muted">{reason}</p>
      <div>
        <ButtonLink href={`/auth/signin?callbackUrl=${encodeURIComponent(next)}`} variant="primary">
          Sign in
        </ButtonLink>
      </div>
    </div>
  );
}
