// The support pages are about one environment of the games (the URL's env, live when absent); the
// switch tops every page for those who may use them.
import type { ReactNode } from "react";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { OffersEnvironmentProvider } from "@/components/offers-environment/offers-environment";

export default async function OffersLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return <OffersEnvironmentProvider withSwitch={user !== null && hasRole(user, "support")}>{children}</OffersEnvironmentProvider>;
}
