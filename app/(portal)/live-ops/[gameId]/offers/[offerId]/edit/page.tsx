// Edit an offer definition (liveops role; admin implied): saved over the version loaded (If-Match).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { DefinitionEditor } from "@/components/live-ops/definition-editor";
import { checkId } from "../../../../ids";

export const dynamic = "force-dynamic";

type Params = Promise<{ gameId: string; offerId: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { offerId } = await params;
  return { title: `Edit ${checkId(offerId) ?? "offer"} · Live ops` };
}

export default async function EditOfferPage({ params }: { params: Params }) {
  const raw = await params;
  const gameId = checkId(raw.gameId);
  const offerId = checkId(raw.offerId);
  if (!gameId || !offerId) notFound();
  const user = await currentUser();
  const here = `/live-ops/${encodeURIComponent(gameId)}/offers/${encodeURIComponent(offerId)}/edit`;
  if (!user) return <SignInNeeded title="Edit offer" reason="Sign in to author offers." next={here} />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <DefinitionEditor key={here} gameId={gameId} offerId={offerId} />;
}
