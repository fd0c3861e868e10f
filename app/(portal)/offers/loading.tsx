import { PageLoading } from "@/components/shell/page-loading";

export default function OffersLoading() {
  return <PageLoading what="the offers dashboard" />;
}
