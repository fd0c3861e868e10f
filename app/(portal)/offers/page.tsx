// Support dashboard: pick a game, find a player (support role; admin implied), in the environment the URL names.
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { SupportRoleNeeded } from "@/components/offers/support-role-needed";
import { SupportHome } from "@/components/offers/support-home";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";

export const dynamic = "force-dynamic";

type SearchParams = Promise<PageSearchParams>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: titleIn("Offers", pageEnvironment(await searchParams)) };
}

export default async function OffersPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  const params = await searchParams;
  if (!user) return <SignInNeeded title="Offers" reason="Sign in to inspect players' offers." next={pageHref("/offers", pageEnvironment(params))} />;
  if (!hasRole(user, "support")) return <SupportRoleNeeded lead={hasRole(user, "lead")} />;
  return <SupportHome initialGame={first(params.game).slice(0, 200)} initialQuery={first(params.q).slice(0, 200)} me={user.id} />;
}
