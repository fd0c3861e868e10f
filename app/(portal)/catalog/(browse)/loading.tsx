// The catalog list and its load errors on their way (the first read of the config repository takes a
// while). Only pages that neither redirect nor answer "not found" stand under a loading boundary: a
// page behind one streams, so its 404 or sign-in redirect would reach the browser as a 200.
import { PageLoading } from "@/components/shell/page-loading";

export default function CatalogLoading() {
  return <PageLoading what="the catalog" cards={3} />;
}
