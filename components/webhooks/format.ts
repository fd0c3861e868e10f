// How the webhook pages write times and durations (the browser's locale and time zone).

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** "0 s", "42 s", "3 min 5 s", "2 h 10 min", "1 d 4 h". */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** A datetime-local input's value (local time) for a moment. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The longest URL a message quotes whole; the table and dialogs show it in full. */
export const URL_IN_MESSAGE_MAX = 80;

/** A URL as a sentence quotes it: whole up to 80 characters, else its start and end around an ellipsis. */
export function urlInMessage(url: string): string {
  if (url.length <= URL_IN_MESSAGE_MAX) return url;
  return `${url.slice(0, URL_IN_MESSAGE_MAX - 21)}…${url.slice(-20)}`;
}
