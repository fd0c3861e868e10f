// The ids of live-ops addresses, checked before a page renders (Next passes the segments decoded).
import { IDENTIFIER_PATTERN } from "@/lib/offers-client/schemas";

/** The id when the offers service could hold it, else null (the page answers not found). */
export const checkId = (value: string): string | null => (IDENTIFIER_PATTERN.test(value) ? value : null);
