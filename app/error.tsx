"use client";
// Any page outside the portal's route group that cannot be rendered (the portal's own pages have
// app/(portal)/error.tsx, inside their header).
import { UnavailablePage } from "@/components/shell/unavailable-page";

export default function RootError(props: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <main className="shell-main">
      <UnavailablePage {...props} />
    </main>
  );
}
