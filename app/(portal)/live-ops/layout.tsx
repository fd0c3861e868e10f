// The live-ops pages (offers and webhooks) are about one environment of the games (the URL's env, live
// when absent); the switch tops every page for those who may use them.
import type { ReactNode } from "react";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { OffersEnvironmentProvider } from "@/components/offers-environment/offers-environment";

export default async function LiveOpsLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return <OffersEnvironmentProvider withSwitch={user !== null && hasRole(user, "liveops")}>{children}</OffersEnvironmentProvider>;
}
