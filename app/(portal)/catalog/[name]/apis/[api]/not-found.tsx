// An API page whose component does not provide that API (or a ref that is neither its default branch nor a tag).
import { NotFoundPage } from "@/components/shell/not-found-page";

export default function ApiNotFound() {
  return (
    <NotFoundPage title="No such API" back={{ href: "/catalog", label: "Catalog" }}>
      The component does not provide an API of that name, or the version asked for is neither its default branch nor a release tag. Its page lists the APIs it provides.
    </NotFoundPage>
  );
}
