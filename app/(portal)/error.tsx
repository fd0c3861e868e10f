"use client";
// A portal page that cannot be rendered (its database is down, …): the styled "temporarily unavailable"
// page inside the portal's header, which retries by itself once the database answers.
import { UnavailablePage } from "@/components/shell/unavailable-page";

export default function PortalError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return <UnavailablePage {...props} />;
}
