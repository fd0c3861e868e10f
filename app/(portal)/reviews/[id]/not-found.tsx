import { NotFoundPage } from "@/components/shell/not-found-page";

export default function ReviewNotFound() {
  return (
    <NotFoundPage title="No such merge request" back={{ href: "/reviews", label: "Reviews" }}>
      The config repository has no merge request with that number.
    </NotFoundPage>
  );
}
