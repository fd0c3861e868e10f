"use client";
// The Claim button of a claimable offer or referral: a form posting to the claim server action, so
// it works before the page's scripts load too. The page re-renders with it claimed.
import { useActionState } from "react";
import { useFormStatus } from "react-dom";
import styles from "./rewards.module.css";

function Submit({ offerName }: { offerName: string }) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={styles.claimButton} disabled={pending} aria-label={`Claim ${offerName}`}>
      {pending ? "Claiming…" : "Claim"}
    </button>
  );
}

export interface ClaimState {
  status: "idle" | "claimed" | "error";
  message?: string;
}

/** The server action that claims (app/rewards/actions.ts), passed down by the page. */
export type ClaimAction = (previous: ClaimState, form: FormData) => Promise<ClaimState>;

export function ClaimButton({ kind = "offer", instanceId, offerName, claim }: { kind?: "offer" | "referral"; instanceId: string; offerName: string; claim: ClaimAction }) {
  const [state, action] = useActionState<ClaimState, FormData>(claim, { status: "idle" });
  return (
    <form action={action} className={styles.claimForm}>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="instanceId" value={instanceId} />
      <Submit offerName={offerName} />
      {state.status === "error" ? (
        <p className={styles.claimError} role="alert">
          {state.message}
        </p>
      ) : null}
    </form>
  );
}
