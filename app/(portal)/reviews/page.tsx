// Reviews: the merge requests the user may decide, and the ones the user opened.
import type { Metadata } from "next";
import { requireUser } from "@/lib/portal/session";
import { ReviewList } from "@/components/reviews/review-list";
import styles from "@/components/reviews/reviews.module.css";

export const metadata: Metadata = { title: "Reviews" };
export const dynamic = "force-dynamic";

export default async function ReviewsPage() {
  const user = await requireUser("/reviews");
  return (
    <div className={`stack ${styles.page}`}>
      <h1>Reviews</h1>
      <p className="muted">
        Changes proposed in the portal wait here as merge requests of the config repository. A component&apos;s owners and operators approve, merge or close
        them; the author may close their own.
      </p>
      <ReviewList userId={user.id} />
    </div>
  );
}
