// An offer definition's page (liveops role; admin implied): what it is, its lifecycle, its job, its funnel, a preview;
// in the environment the URL names.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionView } from "@/components/live-ops/definition-view";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";
import { checkId } from "../../../../address-ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string; offerId: string }>;
type SearchParams = Promise<PageSearchParams>;

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { offerId } = await params;
  return { title: titleIn(`${checkId(offerId) ?? "Offer"} · Live ops`, pageEnvironment(await searchParams)) };
}

export default async function OfferPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const raw = await params;
  const gameId = checkId(raw.gameId);
  const offerId = checkId(raw.offerId);
  if (!gameId || !offerId) notFound();
  const user = await currentUser();
  const here = `/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(offerId)}`;
  if (!user) return <SignInNeeded title="Live ops" reason="Sign in to author and measure offers." next={pageHref(here, pageEnvironment(await searchParams))} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionView key={here} gameId={gameId} offerId={offerId} />;
}
