"use client";
// The Claim button of a claimable offer or referral: a form posting to the page's one claim action
// (claims.tsx), so it works before the page's scripts load too. The page re-renders with it claimed.
import { useFormStatus } from "react-dom";
import { useClaims } from "./claims";
import styles from "./rewards.module.css";

function Submit({ offerName }: { offerName: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={styles.claimButton} disabled={pending} aria-label={`Claim ${offerName}`}>
      {pending ? "Claiming…" : "Claim"}
    </button>
  );
}

export function ClaimButton({ kind = "offer", instanceId, offerName }: { kind?: "offer" | "referral"; instanceId: string; offerName: string }) {
  const { state, action } = useClaims();
  return (
    <form action={action} className={styles.claimForm}>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="instanceId" value={instanceId} />
      <Submit offerName={offerName} />
      {state.status === "error" && state.instanceId === instanceId ? (
        <p className={styles.claimError} role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
