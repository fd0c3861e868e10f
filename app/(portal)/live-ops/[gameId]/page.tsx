// A game's offer definitions (liveops role; admin implied).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionList } from "@/components/live-ops/definition-list";
import { checkId } from "../ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { gameId } = await params;
  return { title: `${checkId(gameId) ?? "Game"} · Live ops` };
}

export default async function GameOffersPage({ params }: { params: Params }) {
  const gameId = checkId((await params).gameId);
  if (!gameId) notFound();
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Live ops" reason="Sign in to author and measure offers." next={`/live-ops/${encodeURIComponent(gameId)}`} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionList key={gameId} gameId={gameId} />;
}
