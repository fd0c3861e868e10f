// Import repositories from source control as catalog components. Every signed-in user may
// use it: operators' imports are committed, everyone else's are proposed as a merge request.
import type { Metadata } from "next";
import { hasRole } from "@/lib/portal/authorize";
import { requireUser } from "@/lib/portal/session";
import { ImportWizard } from "@/components/gitops/import/import-wizard";
import styles from "@/components/gitops/gitops.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Import repositories" };

export default async function ImportPage() {
  const user = await requireUser("/import");
  return (
    <div className="stack">
      <h1 className={styles.flush}>Import repositories</h1>
      <ImportWizard canOperate={hasRole(user, "operator")} />
    </div>
  );
}
