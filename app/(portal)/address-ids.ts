// The ids in portal addresses (games, players, offers), checked before a page renders.
import { isIdentifier } from "@/lib/offers-client/schemas";

/**
 * The id when the offers service could hold it, else null (the page answers not found). Next passes a segment
 * percent-encoded when it holds characters outside the identifier rule (`|`, `@`, `+`, `=` among them), so it is
 * decoded first; an identifier holds no `%`, so decoding an already decoded one changes nothing.
 */
export function checkId(value: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  return isIdentifier(decoded) ? decoded : null;
}
