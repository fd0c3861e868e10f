// Incident compensation in bulk (support asks; leads and support approve, follow and download), in the environment the URL names.
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { SupportRoleNeeded } from "@/components/offers/support-role-needed";
import { BulkCompensationPage } from "@/components/offers/bulk-compensation-page";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";

export const dynamic = "force-dynamic";

type SearchParams = Promise<PageSearchParams>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: titleIn("Incident compensation", pageEnvironment(await searchParams)) };
}

export default async function IncidentCompensationPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  const params = await searchParams;
  if (!user) return <SignInNeeded title="Incident compensation" reason="Sign in to compensate players in bulk." next={pageHref("/offers/bulk-compensation", pageEnvironment(params))} />;
  if (!hasRole(user, "support") && !hasRole(user, "lead")) return <SupportRoleNeeded />;
  return <BulkCompensationPage initialGame={first(params.game).slice(0, 200)} me={user.id} canAsk={hasRole(user, "support")} />;
}
