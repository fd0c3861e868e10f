// A component page whose name the catalog does not hold (or cannot be a name).
import { NotFoundPage } from "@/components/shell/not-found-page";

export default function ComponentNotFound() {
  return (
    <NotFoundPage title="No such component" back={{ href: "/catalog", label: "Catalog" }}>
      The catalog has no component of that name. It may have been renamed or removed, or it may still be waiting in a merge request.
    </NotFoundPage>
  );
}
