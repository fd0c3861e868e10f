import { ButtonLink } from "@/components/ui/button";

export function SignInNeeded({ next }: { next: string }) {
  return (
    <div className="stack" style={{ maxWidth: 560 }} data-testid="signed-out">
      <h1>Catalog</h1>
      <p className="muted">Sign in to browse the catalog.</p>
      <div>
        <ButtonLink href={`/auth/signin?callbackUrl=${encodeURIComponent(next)}`} variant="primary">
          Sign in
        </ButtonLink>
      </div>
    </div>
  );
}
