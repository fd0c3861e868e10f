// A player's timeline (support role; admin implied), in the environment the URL names.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { checkId } from "../../../../address-ids";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { SupportRoleNeeded } from "@/components/offers/support-role-needed";
import { PlayerTimeline } from "@/components/offers/timeline/player-timeline";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string; playerId: string }>;
type SearchParams = Promise<PageSearchParams>;

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { playerId } = await params;
  return { title: titleIn(`Timeline of ${checkId(playerId) ?? "a player"} · Offers`, pageEnvironment(await searchParams)) };
}

export default async function PlayerTimelinePage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const raw = await params;
  const gameId = checkId(raw.gameId);
  const playerId = checkId(raw.playerId);
  if (!gameId || !playerId) notFound();
  const user = await currentUser();
  const here = pageHref(`/offers/${encodeURIComponent(gameId)}/${encodeURIComponent(playerId)}/timeline`, pageEnvironment(await searchParams));
  if (!user) return <SignInNeeded title="Offers" reason="Sign in to read players' timelines." next={here} />;
  if (!hasRole(user, "support")) return <SupportRoleNeeded />;
  return <PlayerTimeline key={`${gameId}/${playerId}`} gameId={gameId} playerId={playerId} />;
}
