// A portal page on its way: its shape inside the portal's header, until the server has rendered it.
import { PageLoading } from "@/components/shell/page-loading";

export default function PortalLoading() {
  return <PageLoading />;
}
