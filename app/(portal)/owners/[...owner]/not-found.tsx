// An owner page for a name no record of the catalog holds as a user or a group.
import { NotFoundPage } from "@/components/shell/not-found-page";

export default function OwnerNotFound() {
  return (
    <NotFoundPage title="No such owner" back={{ href: "/catalog", label: "Catalog" }}>
      No component of the catalog names this user or group as an owner. Check the spelling: a group is its full path, such as commerce/backend.
    </NotFoundPage>
  );
}
