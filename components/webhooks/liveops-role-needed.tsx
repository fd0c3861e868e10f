// What the webhook pages show to someone signed in without the liveops role.
import { Alert } from "@/components/ui";
import styles from "./webhooks.module.css";

export function LiveOpsRoleNeeded() {
  return (
    <div className={`stack ${styles.roleNeeded}`} data-testid="liveops-role-needed">
      <h1>Reward webhooks</h1>
      <Alert tone="warning">
        You need the <strong>liveops</strong> role to manage a game&apos;s webhook endpoints and deliveries. Ask an administrator to add you to
        a live ops group in the portal configuration.
      </Alert>
    </div>
  );
}
