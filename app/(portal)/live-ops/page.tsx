// Live ops: pick a game (liveops role; admin implied).
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { SignInNeeded } from "@/components/shell/sign-in-needed";
import { LiveOpsRoleNeeded } from "@/components/live-ops/live-ops-role-needed";
import { LiveOpsHome } from "@/components/live-ops/live-ops-home";

export const metadata: Metadata = { title: "Live ops" };
export const dynamic = "force-dynamic";

export default async function LiveOpsPage() {
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Live ops" reason="Sign in to author and measure offers." next="/live-ops" />;
  if (!hasRole(user, "liveops")) return <LiveOpsRoleNeeded />;
  return <LiveOpsHome />;
}
