"use client";
// "3h 12m left", ticking every 30 s in the browser.
import { timeLeftLabel, formatDuration } from "@/components/offer-parts/offer-math";
import type { OfferStatus } from "@/lib/offers-client/schemas";
import { useNow } from "@/components/offer-parts/use-now";

export function TimeLeft({ at, status, mode = "offer" }: { at: number; status?: OfferStatus; mode?: "offer" | "session" }) {
  const now = useNow(30_000);
  const text =
    mode === "session"
      ? (() => {
          const left = formatDuration(at - now);
          return left ? `in ${left}` : "now";
        })()
      : timeLeftLabel({ status: status ?? "surfaced", expiresAt: new Date(at).toISOString() }, now);
  return (
    <span suppressHydrationWarning data-testid={mode === "offer" ? "time-left" : undefined}>
      {text}
    </span>
  );
}
