// An offer definition's page (liveops role; admin implied): what it is, its lifecycle, its job, its funnel, a preview.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionView } from "@/components/live-ops/definition-view";
import { checkId } from "../../../ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string; offerId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { offerId } = await params;
  return { title: `${checkId(offerId) ?? "Offer"} · Live ops` };
}

export default async function OfferPage({ params }: { params: Params }) {
  const raw = await params;
  const gameId = checkId(raw.gameId);
  const offerId = checkId(raw.offerId);
  if (!gameId || !offerId) notFound();
  const user = await currentUser();
  const here = `/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(offerId)}`;
  if (!user) return <SignInNeeded title="Live ops" reason="Sign in to author and measure offers." next={here} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionView key={here} gameId={gameId} offerId={offerId} />;
}
