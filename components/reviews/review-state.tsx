import { Badge } from "@/components/ui";
import type { Review } from "./api";

export function ReviewStateBadge({ review }: { review: Pick<Review, "state"> }) {
  if (review.state === "merged") return <Badge tone="success">merged</Badge>;
  if (review.state === "closed") return <Badge tone="danger">closed</Badge>;
  return <Badge tone="accent">open</Badge>;
}

/** What a request is about, in words: the component, the import, or the app order. */
export function scopeLabel(review: Pick<Review, "scope">): string {
  const s = review.scope;
  if (s.kind === "component") return s.component;
  if (s.kind === "order") return `app order ${s.component}`;
  if (s.kind === "import") return "import";
  return "config repository";
}
