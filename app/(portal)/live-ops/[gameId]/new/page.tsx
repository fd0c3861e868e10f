// A new offer definition of a game (liveops role; admin implied): saved as a draft, in the environment the URL names.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionCreator } from "@/components/live-ops/definition-editor";
import { pageEnvironment, pageHref, titleIn, type PageSearchParams } from "@/components/offers-environment/environment";
import { checkId } from "../../../address-ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string }>;
type SearchParams = Promise<PageSearchParams>;

export async function generateMetadata({ searchParams }: { searchParams: SearchParams }): Promise<Metadata> {
  return { title: titleIn("New offer · Live ops", pageEnvironment(await searchParams)) };
}

export default async function NewOfferPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const gameId = checkId((await params).gameId);
  if (!gameId) notFound();
  const user = await currentUser();
  const here = pageHref(`/live-ops/${encodeURIComponent(gameId)}/new`, pageEnvironment(await searchParams));
  if (!user) return <SignInNeeded title="New offer" reason="Sign in to author offers." next={here} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionCreator gameId={gameId} />;
}
