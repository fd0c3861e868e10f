import type { Metadata } from "next";
import { TokensPanel } from "@/components/tokens/tokens-panel";
import { requireUser } from "@/lib/portal/session";
import styles from "@/components/tokens/tokens.module.css";

export const metadata: Metadata = { title: "API tokens" };

export default async function TokensPage() {
  await requireUser("/tokens");
  return (
    <div className={`stack ${styles.page}`}>
      <h1>Personal API tokens</h1>
      <p className="muted">
        Scripts and CI call the portal API with <code>Authorization: Bearer &lt;token&gt;</code> and act as you, with your roles. A token is
        shown once when it is created; revoke it when it is no longer needed.
      </p>
      <TokensPanel />
    </div>
  );
}
