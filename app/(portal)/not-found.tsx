// notFound() in a portal page: the portal's "not found" inside its header.
import { NotFoundPage } from "@/components/shell/not-found-page";

export default function PortalNotFound() {
  return <NotFoundPage />;
}
