// Edit an offer definition (liveops role; admin implied): saved over the version loaded (If-Match), in the
// environment the URL names.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionEditor } from "@/components/live-ops/definition-editor";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";
import { checkId } from "../../../../../address-ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string; offerId: string }>;
type SearchParams = Promise<PageSearchParams>;

export async function generateMetadata({ params, searchParams }: { params: Params; searchParams: SearchParams }): Promise<Metadata> {
  const { offerId } = await params;
  return { title: titleIn(`Edit ${checkId(offerId) ?? "offer"} · Live ops`, pageEnvironment(await searchParams)) };
}

export default async function EditOfferPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const raw = await params;
  const gameId = checkId(raw.gameId);
  const offerId = checkId(raw.offerId);
  if (!gameId || !offerId) notFound();
  const user = await currentUser();
  const here = `/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(offerId)}/edit`;
  if (!user) return <SignInNeeded title="Edit offer" reason="Sign in to author offers." next={pageHref(here, pageEnvironment(await searchParams))} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionEditor key={here} gameId={gameId} offerId={offerId} />;
}
