// Live ops: pick a game (liveops role; admin implied), in the environment the URL names.
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { LiveOpsHome } from "@/components/live-ops/live-ops-home";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";

export const dynamic = "force-dynamic";

type SearchParams = Promise<PageSearchParams>;

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: titleIn("Live ops", pageEnvironment(await searchParams)) };
}

export default async function LiveOpsPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Live ops" reason="Sign in to author and measure offers." next={pageHref("/live-ops", pageEnvironment(await searchParams))} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <LiveOpsHome />;
}
