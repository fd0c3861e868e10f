// The catalog page: the first page of results is rendered on the server from the in-memory index
// (fast first paint), then the client component pages, searches and filters through /api/components.
import type { Metadata } from "next";
import { currentUser, hasRole } from "@/lib/portal/authorize";
import { getPortalServices } from "@/lib/portal/services";
import { favoriteSet } from "@/lib/portal/favorites";
import { listQuerySchema, unknownLevels } from "@/lib/catalog/query";
import { CatalogBrowser, type CatalogState } from "@/components/catalog/catalog-browser";
import { RefreshCatalogButton } from "@/components/catalog/refresh-catalog-button";
import { Link } from "@/components/ui/link";
import { SignInNeeded } from "@/components/shell/sign-in-needed";

export const metadata: Metadata = { title: "Catalog" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CatalogPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await currentUser();
  if (!user) return <SignInNeeded title="Catalog" reason="Sign in to browse the catalog." next="/catalog" />;
  const raw = await searchParams;
  const parsed = listQuerySchema.safeParse(raw);
  const parsedQuery = parsed.success ? parsed.data : listQuerySchema.parse({});
  const services = getPortalServices();
  const [catalog, db] = await Promise.all([services.catalog(), services.db()]);
  // A level the rules in force do not define (an old link, a renamed level) is dropped, not an error page.
  const unknown = new Set(unknownLevels(parsedQuery, catalog.scorecardRules.levels));
  const query = { ...parsedQuery, level: parsedQuery.level.filter((l) => !unknown.has(l)) };
  const favorites = await favoriteSet(db, user.id);
  const initialData = catalog.list({ ...query, pageSize: 25 }, favorites);
  const options = catalog.options();
  const initialState: CatalogState = {
    q: query.q,
    kind: query.kind,
    environment: query.environment,
    dependency: query.dependency,
    level: query.level,
    group: query.group[0] ?? "",
    owner: query.owner[0] ?? "",
    favorites: query.favorites,
    sort: query.sort,
    order: query.order,
    page: query.page,
  };
  return (
    <CatalogBrowser
      initialState={initialState}
      initialData={initialData}
      options={{ kinds: options.kinds, environments: options.environments, dependencyFlags: options.dependencyFlags, groups: options.groups, owners: options.owners, levels: catalog.scorecardRules.levels, levelCounts: catalog.levelRollup().levels }}
      // After the heading; the API refuses others, the button is shown to operators only.
      actions={
        <div className="row">
          <Link href="/scorecards" data-testid="scorecards-link">
            Scorecard rules and levels
          </Link>
          {hasRole(user, "operator") ? <RefreshCatalogButton /> : null}
        </div>
      }
    />
  );
}
