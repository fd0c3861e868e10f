// A new offer definition of a game (liveops role; admin implied): saved as a draft.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionCreator } from "@/components/live-ops/definition-editor";
import { checkId } from "../../ids";

export const metadata: Metadata = { title: "New offer · Live ops" };
export const dynamic = "force-dynamic";

export default async function NewOfferPage({ params }: { params: Promise<{ gameId: string }> }) {
  const gameId = checkId((await params).gameId);
  if (!gameId) notFound();
  const user = await currentUser();
  if (!user) return <SignInNeeded title="New offer" reason="Sign in to author offers." next={`/live-ops/${encodeURIComponent(gameId)}/new`} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionCreator gameId={gameId} />;
}
