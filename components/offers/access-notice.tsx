// What the offers pages show to someone who may not use them: signed out, or without the support role.
import { ButtonLink } from "@/components/ui/button";
import { Alert } from "@/components/ui/card";

export function OffersSignIn({ next }: { next: string }) {
  return (
    <div className="stack" style={{ maxWidth: 560 }} data-testid="signed-out">
      <h1>Offers</h1>
      <p className="muted">Sign in to inspect players&apos; offers.</p>
      <div>
        <ButtonLink href={`/auth/signin?callbackUrl=${encodeURIComponent(next)}`} variant="primary">
          Sign in
        </ButtonLink>
      </div>
    </div>
  );
}

export function SupportRoleNeeded() {
  return (
    <div className="stack" style={{ maxWidth: 560 }} data-testid="support-role-needed">
      <h1>Offers</h1>
      <Alert tone="warning">
        You need the <strong>support</strong> role to inspect players&apos; offers and watch their events. Ask an administrator to add you
        to a support group in the portal configuration.
      </Alert>
    </div>
  );
}
