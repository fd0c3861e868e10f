// What the offers pages show to someone signed in without the support role.
import { Alert } from "@/components/ui";

export function SupportRoleNeeded() {
  return (
    <div className="stack" style={{ maxWidth: 560 }} data-testid="support-role-needed">
      <h1>Offers</h1>
      <Alert tone="warning">
        You need the <strong>support</strong> role to inspect players&apos; offers and watch their events. Ask an administrator to add you
        to a support group in the portal configuration.
      </Alert>
    </div>
  );
}
