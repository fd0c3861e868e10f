// Words and numbers of the live-ops console: durations, schedules (UTC), percentages.
import { formatAmount } from "@/components/offer-parts/offer-math";

const UNITS: Array<[number, string]> = [
  [86_400, "day"],
  [3_600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** "2 days 3 hours", "90 seconds" → "1 minute 30 seconds"; at most two units. */
export function formatSeconds(total: number): string {
  if (!(total > 0)) return "none";
  const parts: string[] = [];
  let rest = Math.round(total);
  for (const [size, unit] of UNITS) {
    const n = Math.floor(rest / size);
    if (n > 0 && parts.length < 2) {
      parts.push(`${n} ${unit}${n === 1 ? "" : "s"}`);
      rest -= n * size;
    }
  }
  return parts.join(" ");
}

/** An instant in UTC as people read it: "2026-12-01 09:30 UTC". */
export function formatUtc(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** "Always", "From 2026-12-01 00:00 UTC", "Until …", "2026-12-01 00:00 UTC → 2026-12-31 00:00 UTC". */
export function formatSchedule(schedule: { startsAt?: string | null; endsAt?: string | null }): string {
  const { startsAt, endsAt } = schedule;
  if (startsAt && endsAt) return `${formatUtc(startsAt)} → ${formatUtc(endsAt)}`;
  if (startsAt) return `From ${formatUtc(startsAt)}`;
  if (endsAt) return `Until ${formatUtc(endsAt)}`;
  return "Always";
}

/** 0.4231 → "42.3%"; null → "—". */
export function formatRate(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return "—";
  return `${(rate * 100).toFixed(1)}%`;
}

/** A difference of two rates in percentage points: 0.052 → "+5.2 points". */
export function formatPoints(difference: number): string {
  const points = difference * 100;
  const sign = points > 0 ? "+" : points < 0 ? "−" : "±";
  return `${sign}${Math.abs(points).toFixed(1)} points`;
}

export const formatCount = (n: number) => formatAmount(n);
