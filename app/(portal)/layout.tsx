import type { ReactNode } from "react";
import { AppHeader } from "@/components/shell/app-header";
import { currentUser } from "@/lib/portal/authorize";

// Every portal page depends on who is signed in.
export const dynamic = "force-dynamic";

export default async function PortalLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return (
    <>
      <AppHeader user={user} />
      <main className="shell-main">{children}</main>
    </>
  );
}
