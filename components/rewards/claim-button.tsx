"use client";
// The Claim button of a claimable offer or referral: a form posting to /rewards/claim (claims.tsx), so
// it works before the page's scripts load too. The page re-renders with it claimed.
import { CLAIM_PATH, useClaims } from "./claims";
import styles from "./rewards.module.css";

export function ClaimButton({ kind = "offer", instanceId, offerName }: { kind?: "offer" | "referral"; instanceId: string; offerName: string }) {
  const { state, submit, pendingInstanceId } = useClaims();
  const pending = pendingInstanceId === instanceId;
  return (
    <form method="post" action={CLAIM_PATH} onSubmit={submit} className={styles.claimForm}>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="instanceId" value={instanceId} />
      <button type="submit" className={styles.claimButton} disabled={pending} aria-label={`Claim ${offerName}`}>
        {pending ? "Claiming…" : "Claim"}
      </button>
      {state.status === "error" && state.instanceId === instanceId ? (
        <p className={styles.claimError} role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
