// What the live-ops pages show to someone signed in without the liveops role.
import { Alert } from "@/components/ui";
import styles from "./live-ops.module.css";

export function LiveOpsRoleNeeded() {
  return (
    <div className={`stack ${styles.roleNeeded}`} data-testid="liveops-role-needed">
      <h1>Live ops</h1>
      <Alert tone="warning">
        You need the <strong>liveops</strong> role to author, target, activate and measure offers. Ask an administrator to add you to a live-ops group
        in the portal configuration.
      </Alert>
    </div>
  );
}
