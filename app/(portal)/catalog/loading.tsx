import { PageLoading } from "@/components/shell/page-loading";

export default function CatalogLoading() {
  return <PageLoading what="the catalog" cards={3} />;
}
