// A timeline entry said in words for support staff: what happened, and who or what caused it. Pure, so the
// rendered list and its tests read the same sentences.
import type { TimelineEntry, TimelineKind } from "@/lib/offers-client/schemas";

export const KIND_LABELS: Record<TimelineKind, string> = { offer: "Offers", reward: "Rewards", delivery: "Deliveries", support: "Support", activity: "Activity" };

const amount = (n: number) => n.toLocaleString("en-US");
const rewardText = (r: { amount: number; name: string }) => `${amount(r.amount)} ${r.name}`;
const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? "nothing") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

const OFFER_STEPS: Record<string, string> = {
  surfaced: "surfaced",
  queued: "was queued (every slot was taken)",
  viewed: "was viewed",
  claimable: "became claimable",
  claimed: "was claimed",
  expired: "expired",
  revoked: "was revoked",
  extended: "had its expiry moved later",
};

/** What causeWords reads of an offer's move: the timeline's entries and the live view's events both carry it. */
export interface OfferMove {
  cause: string;
  /** The step's name (surfaced, claimed, …): a claim needs no cause of its own. */
  type: string;
  ruleVersion?: number | null;
  actor?: string | null;
}

/** Why an offer moved, in words ("by its audience rule, version 3"). */
export function causeWords(entry: OfferMove): string {
  switch (entry.cause) {
    case "rule":
      return entry.ruleVersion == null ? "by its audience rule" : `by its audience rule (version ${entry.ruleVersion})`;
    case "assign":
      return "on the game server's assignment";
    case "claim":
      return entry.type === "claimed" ? "" : "when a claim was made";
    case "snapshot":
      return "after a snapshot from the game";
    case "expiry":
    case "expiry-sweep":
      return "when its time ran out";
    case "support":
      return entry.actor ? `by ${entry.actor} (support)` : "by support";
    case "fetch":
      return "when the player's offers were fetched";
    case "viewingCampaigns":
      return "when the player opened the offers";
    case "viewed-without-conditions":
      return "once viewed, as it has no conditions to meet";
    case "slot-freed":
      return "when one of the player's offer slots became free";
    default:
      return `(recorded cause “${entry.cause}”)`;
  }
}

const STATUS_WORDS: Record<string, string> = { inQueue: "in queue" };

/** A move as the live view shows it: "new → in queue, on the game server's assignment". */
export function moveWords(move: OfferMove & { fromStatus: string | null; toStatus: string }): string {
  const status = (s: string) => STATUS_WORDS[s] ?? s;
  const cause = move.cause ? causeWords(move) : "";
  return `${move.fromStatus ? status(move.fromStatus) : "new"} → ${status(move.toStatus)}${cause ? `, ${cause}` : ""}`;
}

const SOURCE_WORDS: Record<string, string> = { client: "claimed by the player", server: "claimed through the game server", dashboard: "claimed on the rewards page", support: "granted by support" };

/** A size as people read it: "512 bytes", "1.4 KB", "2.1 MB" (of 1,024). */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A duration as people read it: "12 s", "4 min 12 s", "2 h 5 min". */
export function durationWords(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

const STREAM_CLOSE_WORDS: Record<string, string> = {
  "client closed": "the player's app closed it",
  replaced: "a newer connection of the player replaced it",
  "jwt expired": "its token expired",
  stale: "the player's app stopped reading",
  shutdown: "the service instance stopped",
  error: "it failed to start",
};

/** The entry's one-line summary. */
export function entrySummary(entry: TimelineEntry): string {
  switch (entry.kind) {
    case "offer": {
      const step = OFFER_STEPS[entry.type] ?? `moved to ${entry.to}`;
      const cause = causeWords(entry);
      return `Offer “${entry.offerName || entry.offerId}” ${step}${cause ? ` ${cause}` : ""}.`;
    }
    case "reward": {
      const what = list(entry.rewards.map(rewardText));
      if (entry.sourceKind === "support") return `${what} granted by ${entry.actor ?? "support"}${entry.approvedBy ? `, approved by ${entry.approvedBy}` : ""}.`;
      if (entry.sourceKind === "referral") return `${what} granted for a referral, ${SOURCE_WORDS[entry.source] ?? entry.source}.`;
      return `${what} granted for offer ${entry.offerId ?? ""}${entry.variantId ? ` (variant ${entry.variantId})` : ""}, ${SOURCE_WORDS[entry.source] ?? entry.source}.`;
    }
    case "delivery": {
      const tries = entry.attempts.length;
      const last = entry.attempts.at(-1);
      const answer = last ? (last.statusCode === null ? `no answer (${last.error ?? "failed"})` : `HTTP ${last.statusCode}`) : null;
      const state =
        entry.status === "delivered"
          ? `delivered after ${tries === 1 ? "1 attempt" : `${tries} attempts`}`
          : entry.status === "failed"
            ? `failed after ${tries === 1 ? "1 attempt" : `${tries} attempts`}`
            : tries === 0
              ? "waiting for its first attempt"
              : `will be tried again (${tries === 1 ? "1 attempt" : `${tries} attempts`} so far)`;
      return `Webhook to endpoint ${entry.endpointId} ${state}${answer ? `; last answer ${answer}` : ""}.`;
    }
    case "support": {
      const what = rewardText(entry.reward);
      const who = entry.by ?? "someone";
      switch (entry.action) {
        case "granted":
          return `${who} granted ${what}.`;
        case "requested":
          return `${who} asked to grant ${what}; it waits for a second person.`;
        case "approved":
          return `${who} approved the grant of ${what}.`;
        case "rejected":
          return `${who} rejected the grant of ${what}.`;
        case "expired":
          return `The request to grant ${what} expired undecided.`;
      }
    }
    case "activity": {
      const on = entry.instance ? ` on instance ${entry.instance}` : "";
      switch (entry.activity) {
        case "snapshot": {
          const fields = entry.fields === null ? null : entry.fields === 1 ? "1 field" : `${entry.fields} fields`;
          const parts = [fields, entry.bytes === null ? null : sizeWords(entry.bytes)].filter((p) => p !== null);
          return `Snapshot pushed${parts.length ? `: ${parts.join(", ")}` : ""}.`;
        }
        case "stream-opened":
          return `Stream opened${entry.resumed ? " (resumed)" : ""}${on}.`;
        case "stream-closed": {
          const why = entry.reason ? (STREAM_CLOSE_WORDS[entry.reason] ?? entry.reason) : null;
          return `Stream closed${entry.openMs === null ? "" : ` after ${durationWords(entry.openMs)}`}${on}${why ? `: ${why}` : ""}.`;
        }
      }
    }
  }
}

/** The reason given, when the entry carries one. */
export function entryReason(entry: TimelineEntry): string | null {
  if (entry.kind === "reward" || entry.kind === "support" || entry.kind === "offer") return entry.reason;
  return null;
}
