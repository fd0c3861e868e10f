// What the offers pages show to someone signed in without the support role.
import { Link } from "@/components/ui/link";
import { Alert } from "@/components/ui";
import styles from "./offers.module.css";

/** `lead`: the person decides support grants above the game's thresholds, so the page points to that queue. */
export function SupportRoleNeeded({ lead = false }: { lead?: boolean }) {
  return (
    <div className={`stack ${styles.roleNeeded}`} data-testid="support-role-needed">
      <h1>Offers</h1>
      <Alert tone="warning">
        You need the <strong>support</strong> role to inspect players&apos; offers and watch their events. Ask an administrator to add you
        to a support group in the portal configuration.
      </Alert>
      {lead ? (
        <p data-testid="lead-approvals-link">
          As a lead you decide support grants that wait for a second person: <Link href="/offers/approvals">Approvals</Link>.
        </p>
      ) : null}
    </div>
  );
}
