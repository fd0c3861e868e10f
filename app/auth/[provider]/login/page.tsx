// /auth/<provider>/login: starts the sign-in. The development provider shows its small form;
// GitLab goes straight to GitLab. An unknown or disabled provider is a 404.
import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui";
import { DevSignInForm } from "@/components/shell/dev-sign-in-form";
import { ProviderRedirect } from "@/components/shell/provider-redirect";
import { safeCallbackPath } from "@/lib/portal/auth/redirect";
import { devProviderId, enabledProviders, getAuthSettings, getPortalConfig } from "@/lib/portal/auth/settings";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type Props = {
  params: Promise<{ provider: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export default async function ProviderLoginPage({ params, searchParams }: Props) {
  const { provider } = await params;
  const query = await searchParams;
  const raw = query.callbackUrl;
  const callbackUrl = safeCallbackPath(Array.isArray(raw) ? raw[0] : raw);
  const config = getPortalConfig();
  const enabled = enabledProviders(getAuthSettings(), config).find((p) => p.id === provider);
  if (!enabled) notFound();
  return (
    <main className="auth-page">
      <Card title={enabled.label}>
        {provider === devProviderId ? (
          <div className="stack">
            <p className="muted">For development and tests only: no password, any user name.</p>
            <DevSignInForm
              callbackUrl={callbackUrl}
              users={Object.entries(config.roles.users).map(([name, roles]) => ({ name, roles }))}
              groups={Object.entries(config.roles.groups).map(([path, roles]) => ({ path, roles }))}
            />
          </div>
        ) : (
          <ProviderRedirect providerId={enabled.id} label={enabled.label} callbackUrl={callbackUrl} />
        )}
        <p>
          <Link href={`/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`} className="muted">
            Other ways to sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}
