// Support dashboard: pick a game, find a player (support role; admin implied).
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { SupportRoleNeeded } from "@/components/offers/support-role-needed";
import { SupportHome } from "@/components/offers/support-home";

export const metadata: Metadata = { title: "Offers" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export default async function OffersPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Offers" reason="Sign in to inspect players' offers." next="/offers" />;
  if (!hasRole(user, "support")) return <SupportRoleNeeded />;
  const params = await searchParams;
  return <SupportHome initialGame={first(params.game).slice(0, 200)} initialQuery={first(params.q).slice(0, 200)} />;
}
