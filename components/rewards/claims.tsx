"use client";
// The claims of one visit to the rewards page: every Claim button posts its form to /rewards/claim (a
// route handler: app/rewards/claim/route.ts; without scripts the form posts itself and comes back to
// the page), a confirmation announced to screen readers, and the balances as the game last reported
// them with what was claimed since. The page re-renders after a claim (the claimed offer moves to "Claimed"), so what must
// survive it lives here, above the cards, not in a button.
import { createContext, startTransition, useActionState, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import type { Reward } from "@/lib/offers-client/schemas";
import { formatAmount, formatDuration } from "@/components/offer-parts/offer-math";
import { useNow } from "@/components/offer-parts/use-now";
import { OfferImage } from "@/components/offer-parts/offer-image";
import styles from "./rewards.module.css";

export interface ClaimState {
  status: "idle" | "claimed" | "error";
  message?: string;
  /** The offer or referral the answer is about. */
  instanceId?: string;
}

/** Where a Claim button's form posts. */
export const CLAIM_PATH = "/rewards/claim";

/** Posts one claim form and reads the answer (a ClaimState, also for a refusal). */
async function postClaim(_previous: ClaimState, form: FormData): Promise<ClaimState> {
  const instanceId = String(form.get("instanceId") ?? "");
  try {
    const response = await fetch(CLAIM_PATH, { method: "POST", body: form, headers: { Accept: "application/json" } });
    return (await response.json()) as ClaimState;
  } catch {
    return { status: "error", message: "The rewards service is unavailable. Try again in a moment.", instanceId };
  }
}

/** What each offer and referral on the page grants, by instance: the confirmation names it. */
export type ClaimableRewards = Record<string, { name: string; rewards: Reward[] }>;

interface Claims {
  state: ClaimState;
  /** The submit handler of a Claim button's form (the form's own post is the fallback without scripts). */
  submit: (event: FormEvent<HTMLFormElement>) => void;
  /** The offer or referral whose claim is on its way, if any. */
  pendingInstanceId: string | null;
  claimed: Array<{ instanceId: string; name: string; rewards: Reward[] }>;
}

const ClaimsContext = createContext<Claims | null>(null);

export function useClaims(): Claims {
  const claims = useContext(ClaimsContext);
  if (!claims) throw new Error("useClaims needs a ClaimsProvider");
  return claims;
}

export function rewardsText(rewards: Reward[]): string {
  const parts = rewards.map((r) => `${formatAmount(r.amount)} ${r.name}`);
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

export function ClaimsProvider({ items, children }: { items: ClaimableRewards; children: ReactNode }) {
  const router = useRouter();
  const [state, dispatch, pending] = useActionState<ClaimState, FormData>(postClaim, { status: "idle" });
  const [submitted, setSubmitted] = useState<string | null>(null);
  const [claimed, setClaimed] = useState<Claims["claimed"]>([]);
  const itemsRef = useRef(items);
  useEffect(() => {
    itemsRef.current = items;
  }, [items]);
  useEffect(() => {
    if (state.status === "idle") return;
    // The page shows the offers as the service now has them (claimed, or whatever refused the claim).
    router.refresh();
    const id = state.instanceId;
    if (state.status !== "claimed" || !id) return;
    const item = itemsRef.current[id];
    setClaimed((list) => (list.some((c) => c.instanceId === id) ? list : [...list, { instanceId: id, name: item?.name ?? "Your reward", rewards: item?.rewards ?? [] }]));
  }, [state, router]);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSubmitted(String(form.get("instanceId") ?? ""));
    startTransition(() => dispatch(form));
  };
  return <ClaimsContext.Provider value={{ state, submit, pendingInstanceId: pending ? submitted : null, claimed }}>{children}</ClaimsContext.Provider>;
}

/** "Claimed Welcome pack: 500 Gold." — in a live region, so a screen reader announces it. */
export function ClaimAnnouncement() {
  const { claimed } = useClaims();
  const last = claimed.at(-1);
  return (
    <div role="status" aria-live="polite" className={last ? styles.claimConfirmation : undefined} data-testid="claim-confirmation">
      {last ? (
        <>
          <strong>Claimed {last.name}</strong>
          {last.rewards.length ? `: ${rewardsText(last.rewards)}.` : "."} It is on its way to your game.
        </>
      ) : null}
    </div>
  );
}

/**
 * The player's balances as the game last reported them (its snapshot), each with what was claimed since
 * beside it (from the reward ledger, so a reload keeps it) until the game reports again.
 */
export function Balances({
  currencies,
  snapshotAt,
  claimedSinceSnapshot,
}: {
  currencies: Array<{ id: string; name: string; image?: string | null; balance: number }>;
  snapshotAt: string;
  claimedSinceSnapshot: Record<string, number>;
}) {
  if (currencies.length === 0) return null;
  return (
    <div className={styles.balancesBlock}>
      <ul className={styles.balances} aria-label="Your balances" data-testid="balances">
        {currencies.map((c) => {
          const since = claimedSinceSnapshot[c.id] ?? 0;
          return (
            <li key={c.id} data-testid={`balance-${c.id}`}>
              <OfferImage src={c.image || undefined} size={24} />
              <span>
                <strong className="amount">{formatAmount(c.balance)}</strong> {c.name}
                {since > 0 ? <span className={styles.balanceAdded}> (<span className="amount">+{formatAmount(since)}</span> claimed, on its way)</span> : null}
              </span>
            </li>
          );
        })}
      </ul>
      <p className={styles.muted} data-testid="balances-as-of">
        As your game last reported them, <SnapshotAge at={snapshotAt} />. Rewards claimed since show beside them until it reports again.
      </p>
    </div>
  );
}

/** "5 minutes ago", ticking in the browser. */
function SnapshotAge({ at }: { at: string }) {
  const now = useNow(30_000);
  const age = formatDuration(now - Date.parse(at));
  return (
    <span suppressHydrationWarning>{age === null ? "just now" : age === "less than a minute" ? "less than a minute ago" : `${age} ago`}</span>
  );
}
