// The queue of support grants waiting for approval (leads and support; admin implied), in the environment the URL names.
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { SupportRoleNeeded } from "@/components/offers/support-role-needed";
import { ApprovalsPage } from "@/components/offers/approvals-page";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";

export const dynamic = "force-dynamic";

type SearchParams = Promise<PageSearchParams>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: titleIn("Support approvals", pageEnvironment(await searchParams)) };
}

export default async function SupportApprovalsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  const params = await searchParams;
  if (!user) return <SignInNeeded title="Support approvals" reason="Sign in to approve support grants." next={pageHref("/offers/approvals", pageEnvironment(params))} />;
  if (!hasRole(user, "support") && !hasRole(user, "lead")) return <SupportRoleNeeded />;
  return <ApprovalsPage initialGame={first(params.game).slice(0, 200)} me={user.id} canSetThresholds={hasRole(user, "lead")} />;
}
