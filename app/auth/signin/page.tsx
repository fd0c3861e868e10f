import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { Alert, Card, ButtonLink } from "@/components/ui";
import { currentUser } from "@/lib/portal/authorize";
import { safeCallbackPath } from "@/lib/portal/auth/redirect";
import { enabledProviders, getAuthSettings, getPortalConfig } from "@/lib/portal/auth/settings";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const errorMessages: Record<string, string> = {
  CredentialsSignin: "That sign-in was refused.",
  OAuthSignin: "Could not start the sign-in with the provider.",
  OAuthCallback: "The provider's answer could not be used. Try again.",
  OAuthAccountNotLinked: "This account cannot be used here.",
  AccessDenied: "Access denied.",
  Callback: "The sign-in could not be completed.",
  Configuration: "Sign-in is not configured correctly on the server.",
  SessionRequired: "Sign in to see that page.",
};

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackPath(first(params.callbackUrl));
  const error = first(params.error);
  const providers = enabledProviders(getAuthSettings(), getPortalConfig());
  const user = await currentUser();
  return (
    <main className="auth-page">
      <Card title="Sign in to the platform portal">
        <div className="stack">
          {error ? <Alert tone="error">{errorMessages[error] ?? "Sign-in failed."}</Alert> : null}
          {user ? (
            <Alert>
              You are signed in as <strong>{user.name}</strong>. <Link href={callbackUrl}>Continue</Link>
            </Alert>
          ) : null}
          {providers.length === 0 ? (
            <Alert tone="warning">
              No sign-in is configured. Set <code>GITLAB_CLIENT_ID</code> and <code>GITLAB_CLIENT_SECRET</code>, or{" "}
              <code>PORTAL_DEV_LOGIN=1</code> for the development sign-in.
            </Alert>
          ) : (
            providers.map((p) => (
              <ButtonLink key={p.id} href={`/auth/${p.id}/login?callbackUrl=${encodeURIComponent(callbackUrl)}`} variant="primary">
                {p.id === "dev" ? p.label : `Sign in with ${p.label}`}
              </ButtonLink>
            ))
          )}
          <Link href="/" className="muted">
            Back to the portal
          </Link>
        </div>
      </Card>
    </main>
  );
}
