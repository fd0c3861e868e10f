// An address no page of the app answers (API paths answer JSON themselves: app/api/[...path]).
import type { Metadata } from "next";
import { NotFoundPage } from "@/components/shell/not-found-page";

export const metadata: Metadata = { title: "Not found" };

export default function RootNotFound() {
  return (
    <main className="shell-main">
      <NotFoundPage />
    </main>
  );
}
