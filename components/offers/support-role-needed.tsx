// What the offers pages show to someone signed in without the support role.
import { Alert } from "@/components/ui";
import styles from "./offers.module.css";

export function SupportRoleNeeded() {
  return (
    <div className={`stack ${styles.roleNeeded}`} data-testid="support-role-needed">
      <h1>Offers</h1>
      <Alert tone="warning">
        You need the <strong>support</strong> role to inspect players&apos; offers and watch their events. Ask an administrator to add you
        to a support group in the portal configuration.
      </Alert>
    </div>
  );
}
