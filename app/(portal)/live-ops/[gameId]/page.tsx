// A game's offer definitions (liveops role; admin implied), in the environment the URL names.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionList } from "@/components/live-ops/definition-list";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";
import { checkId } from "../../address-ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string }>;
type SearchParams = Promise<PageSearchParams>;

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { gameId } = await params;
  return { title: titleIn(`${checkId(gameId) ?? "Game"} · Live ops`, pageEnvironment(await searchParams)) };
}

export default async function GameOffersPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const gameId = checkId((await params).gameId);
  if (!gameId) notFound();
  const user = await currentUser();
  const here = pageHref(`/live-ops/${encodeURIComponent(gameId)}`, pageEnvironment(await searchParams));
  if (!user) return <SignInNeeded title="Live ops" reason="Sign in to author and measure offers." next={here} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionList key={gameId} gameId={gameId} />;
}
