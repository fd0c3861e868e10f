// Reward webhooks of a game: endpoints, delivery log, replays (liveops role; admin implied), in the
// environment the URL names.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/webhooks/liveops-role-needed";
import { WebhooksConsole } from "@/components/webhooks/webhooks-console";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string }>;
type SearchParams = Promise<PageSearchParams>;

/** Next passes the segment decoded; game ids are 1–200 characters. */
const checkId = (value: string) => (value.length > 0 && value.length <= 200 ? value : null);

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { gameId } = await params;
  return { title: titleIn(`Webhooks · ${checkId(gameId) ?? "Game"}`, pageEnvironment(await searchParams)) };
}

export default async function WebhooksPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const gameId = checkId((await params).gameId);
  if (!gameId) notFound();
  const user = await currentUser();
  const here = pageHref(`/live-ops/${encodeURIComponent(gameId)}/webhooks`, pageEnvironment(await searchParams));
  if (!user) return <SignInNeeded title="Reward webhooks" reason="Sign in to manage a game's reward webhooks." next={here} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <WebhooksConsole key={gameId} gameId={gameId} />;
}
