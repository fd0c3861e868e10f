// One merge request: read on the server (a styled not-found for an unknown one), then live in the client.
import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { requireUser } from "@/lib/portal/session";
import { getPortalServices } from "@/lib/portal/services";
import { getReview } from "@/lib/portal/gitops/reviews";
import { reviewParamsSchema } from "@/lib/portal/gitops/review-shapes";
import { PortalError } from "@/lib/portal/errors";
import { ReviewView } from "@/components/reviews/review-view";
import styles from "@/components/reviews/reviews.module.css";

export const dynamic = "force-dynamic";

type Params = Promise<{ id: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: `Merge request !${(await params).id}` };
}

export default async function ReviewPage({ params }: { params: Params }) {
  const parsed = reviewParamsSchema.safeParse(await params);
  if (!parsed.success) notFound();
  const user = await requireUser(`/reviews/${parsed.data.id}`);
  const review = await getReview(await getPortalServices().gitops(), user, parsed.data.id).catch((e: unknown) => {
    if (e instanceof PortalError && e.code === "not-found") return null;
    throw e;
  });
  if (!review) notFound();
  return (
    <div className={`stack ${styles.reviewPage}`}>
      <p>
        <Link href="/reviews">← Reviews</Link>
      </p>
      <ReviewView initial={review} />
    </div>
  );
}
